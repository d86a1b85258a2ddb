// A keyed client's proof of who it is at the token endpoint: a JWT it signed with a key from its metadata document
// (private_key_jwt, RFC 7523 §2.2 and §3, RFC 7521 §4.2). Checked here in full but for single use, which the caller
// asks of the replay set with the jti and exp this returns.
import { base64urlDecode, fromUtf8, utf8 } from "../../protocol/index.js";
import type { ClientKey } from "./client-keys.js";

export const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** The algorithms an assertion may be signed with: Ed25519 (as "EdDSA" or RFC 9864's "Ed25519") and P-256. */
export const CLIENT_ASSERTION_ALGS = ["EdDSA", "Ed25519", "ES256"] as const;
/** How far ahead an assertion's exp may lie: it is a one-request proof, and its jti is kept until then. */
export const MAX_ASSERTION_LIFETIME_MS = 5 * 60_000;
/** Clock difference allowed between the client and this server, for iat and nbf. */
const SKEW_MS = 60_000;
const MAX_ASSERTION_CHARS = 8192;

export type AssertionCheck = { ok: true; jti: string; expiresAt: number } | { ok: false; why: string };

function decodeJson(part: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(fromUtf8(base64urlDecode(part))) as unknown;
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function webCryptoOf(key: ClientKey): { importAlg: EcKeyImportParams | Algorithm; verifyAlg: EcdsaParams | Algorithm } {
  return key.kty === "OKP"
    ? { importAlg: { name: "Ed25519" }, verifyAlg: { name: "Ed25519" } }
    : { importAlg: { name: "ECDSA", namedCurve: "P-256" }, verifyAlg: { name: "ECDSA", hash: "SHA-256" } };
}

async function signedBy(key: ClientKey, signingInput: string, sig: Uint8Array): Promise<boolean> {
  const { importAlg, verifyAlg } = webCryptoOf(key);
  try {
    const k = await crypto.subtle.importKey("jwk", { ...key, ext: true } as JsonWebKey, importAlg, false, ["verify"]);
    return await crypto.subtle.verify(verifyAlg, k, sig as Uint8Array<ArrayBuffer>, utf8(signingInput) as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
}

/**
 * `assertion` signed by one of `keys` (the one its kid names, else any of its algorithm), issued by and about
 * `clientId`, for one of `audiences` (this server's issuer, as RFC 7523bis has it, or its token endpoint, as RFC
 * 7523 allowed), unexpired and not meant to live long.
 */
export async function checkClientAssertion(assertion: string, clientId: string, keys: readonly ClientKey[], audiences: readonly string[], now: number): Promise<AssertionCheck> {
  const parts = assertion.length > MAX_ASSERTION_CHARS ? [] : assertion.split(".");
  const header = parts.length === 3 ? decodeJson(parts[0]) : null;
  const claims = parts.length === 3 ? decodeJson(parts[1]) : null;
  if (header === null || claims === null) return { ok: false, why: "client_assertion is not a signed JWT" };
  const alg = header.alg;
  if (!CLIENT_ASSERTION_ALGS.includes(alg as never)) return { ok: false, why: `client_assertion must be signed with ${CLIENT_ASSERTION_ALGS.join(", ")}` };
  const kty = alg === "ES256" ? "EC" : "OKP";
  const candidates = keys.filter((k) => k.kty === kty && (header.kid === undefined || k.kid === header.kid));
  let sig: Uint8Array;
  try {
    sig = base64urlDecode(parts[2]);
  } catch {
    return { ok: false, why: "client_assertion is not a signed JWT" };
  }
  let verified = false;
  for (const k of candidates) if (!verified) verified = await signedBy(k, `${parts[0]}.${parts[1]}`, sig);
  if (!verified) return { ok: false, why: "client_assertion is not signed by a key in the client's jwks" };
  if (claims.iss !== clientId || claims.sub !== clientId) return { ok: false, why: "client_assertion's iss and sub must both be the client_id" };
  const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (!aud.some((a) => audiences.includes(a as string))) return { ok: false, why: `client_assertion's aud must be ${audiences.join(" or ")}` };
  if (typeof claims.exp !== "number" || !(now < claims.exp * 1000)) return { ok: false, why: "client_assertion has expired (or has no exp)" };
  if (claims.exp * 1000 > now + MAX_ASSERTION_LIFETIME_MS) return { ok: false, why: `client_assertion's exp must be within ${MAX_ASSERTION_LIFETIME_MS / 60_000} minutes` };
  for (const t of ["iat", "nbf"] as const) {
    if (claims[t] !== undefined && !(typeof claims[t] === "number" && (claims[t] as number) * 1000 <= now + SKEW_MS)) return { ok: false, why: `client_assertion's ${t} is in the future` };
  }
  if (typeof claims.jti !== "string" || claims.jti.length === 0 || claims.jti.length > 256) return { ok: false, why: "client_assertion needs a jti (1 to 256 characters)" };
  return { ok: true, jti: claims.jti, expiresAt: claims.exp * 1000 };
}
