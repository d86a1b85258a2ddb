// The proof algorithms this motebit accepts (RFC 9449 §5.1 dpop_signing_alg_values_supported): Ed25519 under both of
// its JWS names (EdDSA, and RFC 9864's fully specified Ed25519, which oauth4webapi sends) and ES256 (P-256). Only
// asymmetric ones: a proof is checked with the public key it carries.
import { BoundedCache } from "../../bounded/bounded-cache.js";

export const DPOP_ALGS = ["EdDSA", "Ed25519", "ES256"] as const;
export type DpopAlg = (typeof DPOP_ALGS)[number];

export function isDpopAlg(alg: unknown): alg is DpopAlg {
  return (DPOP_ALGS as readonly unknown[]).includes(alg);
}

/** The public JWK members a proof key may have, per key type (RFC 7638 §3.2's required members). */
export type PublicJwk = { kty: "OKP"; crv: "Ed25519"; x: string } | { kty: "EC"; crv: "P-256"; x: string; y: string };

/** `jwk` as a public key of `alg`'s type, or null (a private member, another curve, a missing coordinate). */
export function publicJwkFor(alg: DpopAlg, jwk: unknown): PublicJwk | null {
  if (typeof jwk !== "object" || jwk === null || Array.isArray(jwk)) return null;
  const k = jwk as Record<string, unknown>;
  // A private key in the header would be the client's secret, sent in clear: never a key we take.
  if ("d" in k) return null;
  if (alg === "ES256") {
    return k.kty === "EC" && k.crv === "P-256" && typeof k.x === "string" && typeof k.y === "string" ? { kty: "EC", crv: "P-256", x: k.x, y: k.y } : null;
  }
  return k.kty === "OKP" && k.crv === "Ed25519" && typeof k.x === "string" ? { kty: "OKP", crv: "Ed25519", x: k.x } : null;
}

/**
 * Imported keys by their coordinates: a client proves every request with the same key, and importing a JWK costs
 * most of a proof's check (about 250 µs of 280 in Node). Values only, never pending promises (workerd).
 */
const imported = new BoundedCache<CryptoKey>(256);

/** Verifies a JWS signature (its raw form: r‖s for ES256) over `signingInput` with WebCrypto; false for a bad key. */
export async function verifyJws(alg: DpopAlg, jwk: PublicJwk, signingInput: Uint8Array<ArrayBuffer>, signature: Uint8Array<ArrayBuffer>): Promise<boolean> {
  const ec = jwk.kty === "EC";
  const cacheKey = ec ? `${jwk.x}.${jwk.y}` : jwk.x;
  try {
    let key = imported.get(cacheKey);
    if (key === undefined) {
      key = await crypto.subtle.importKey("jwk", jwk, ec ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" }, false, ["verify"]);
      imported.set(cacheKey, key);
    }
    return await crypto.subtle.verify(ec ? { name: "ECDSA", hash: "SHA-256" } : { name: "Ed25519" }, key, signature, signingInput);
  } catch {
    return false;
  }
}
