// A keyed client's public keys, as its Client ID Metadata Document publishes them (`jwks`, RFC 7591 §2): Ed25519
// (RFC 8037) or P-256 (RFC 7518 §6.2) signing keys only, public parts only, a handful at most.

export type ClientKey =
  | { kty: "OKP"; crv: "Ed25519"; x: string; kid?: string }
  | { kty: "EC"; crv: "P-256"; x: string; y: string; kid?: string };

export const MAX_CLIENT_KEYS = 5;
/** A 32-byte coordinate in base64url without padding. */
const COORDINATE = /^[A-Za-z0-9_-]{43}$/;

export type CheckedKeys = { ok: true; keys: ClientKey[] } | { ok: false; why: string };

export function checkClientKeys(jwks: unknown): CheckedKeys {
  const list = (jwks as { keys?: unknown } | null)?.keys;
  if (typeof jwks !== "object" || jwks === null || !Array.isArray(list) || list.length === 0 || list.length > MAX_CLIENT_KEYS) {
    return { ok: false, why: `jwks must be {"keys": [...]} with 1 to ${MAX_CLIENT_KEYS} keys` };
  }
  const keys: ClientKey[] = [];
  for (const k of list as Record<string, unknown>[]) {
    if (typeof k !== "object" || k === null) return { ok: false, why: "each key in jwks must be a JSON object" };
    // A private part published is a key anyone can sign with: refused rather than ignored.
    if ("d" in k) return { ok: false, why: "a key in jwks carries its private part (d)" };
    if (k.use !== undefined && k.use !== "sig") return { ok: false, why: 'a key in jwks must be for use "sig"' };
    if (k.kid !== undefined && (typeof k.kid !== "string" || k.kid.length === 0 || k.kid.length > 200)) return { ok: false, why: "a kid in jwks must be 1 to 200 characters" };
    const kid = k.kid === undefined ? {} : { kid: k.kid as string };
    if (k.kty === "OKP" && k.crv === "Ed25519" && typeof k.x === "string" && COORDINATE.test(k.x) && (k.alg === undefined || k.alg === "EdDSA" || k.alg === "Ed25519")) {
      keys.push({ kty: "OKP", crv: "Ed25519", x: k.x, ...kid });
    } else if (k.kty === "EC" && k.crv === "P-256" && typeof k.x === "string" && COORDINATE.test(k.x) && typeof k.y === "string" && COORDINATE.test(k.y) && (k.alg === undefined || k.alg === "ES256")) {
      keys.push({ kty: "EC", crv: "P-256", x: k.x, y: k.y, ...kid });
    } else {
      return { ok: false, why: "the keys in jwks must be Ed25519 (OKP) or P-256 (EC) public keys" };
    }
  }
  return { ok: true, keys };
}
