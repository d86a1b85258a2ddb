// A DPoP proof JWT (RFC 9449 §4.3), checked the same way at the token endpoint and at /mcp: one proof, typ
// dpop+jwt, a supported asymmetric alg, a public jwk that verifies the signature, htm and htu of this request, iat
// in the window and, beside an access token, ath. Single use (jti) and the server nonce are checked by the caller,
// where the replay set and the motebit's key are.
import { base64urlDecodeUnpadded, base64urlEncode, fromUtf8, utf8 } from "../../protocol/index.js";
import { isDpopAlg, publicJwkFor, verifyJws } from "./algorithms.js";
import { jwkThumbprint } from "./thumbprint.js";

/** How far a proof's iat may be from the server's clock, either way (RFC 9449 §11.1: short-lived proofs). */
export const PROOF_WINDOW_MS = 60_000;
/** Bounds on what a caller makes the server parse and remember. */
const MAX_PROOF_CHARS = 8192;
const MAX_JTI_CHARS = 128;

export type DpopProofReason =
  | "proof_missing" | "proof_malformed" | "typ" | "alg" | "jwk" | "signature" | "htm" | "htu" | "iat" | "ath" | "key_mismatch" | "replayed";

export interface ProofExpectation {
  /** The request's method and the URI it was sent to, as the server names it (its public base, not the Host header). */
  method: string;
  uri: string;
  now: number;
  /** The access token presented beside the proof, whose hash the proof must carry (ath); absent at the token endpoint. */
  accessToken?: string;
}

export interface CheckedProof {
  /** The key's RFC 7638 thumbprint. */
  jkt: string;
  jti: string;
  /** Epoch ms. */
  iat: number;
  nonce: string | null;
}

export type ProofVerdict = { ok: true; proof: CheckedProof } | { ok: false; reason: DpopProofReason };

/** `header` is the request's DPoP header (null when absent); several proofs (joined by commas) are refused. */
export async function verifyDpopProof(header: string | null, e: ProofExpectation): Promise<ProofVerdict> {
  if (header === null) return fail("proof_missing");
  const parts = header.length > MAX_PROOF_CHARS ? [] : header.trim().split(".");
  if (parts.length !== 3) return fail("proof_malformed");
  const h = jsonPart(parts[0]);
  const p = jsonPart(parts[1]);
  const sig = bytesPart(parts[2]);
  if (h === null || p === null || sig === null) return fail("proof_malformed");
  if (h.typ !== "dpop+jwt") return fail("typ");
  if (!isDpopAlg(h.alg)) return fail("alg");
  const jwk = publicJwkFor(h.alg, h.jwk);
  if (jwk === null) return fail("jwk");
  if (!(await verifyJws(h.alg, jwk, utf8(`${parts[0]}.${parts[1]}`), sig))) return fail("signature");
  if (typeof p.jti !== "string" || p.jti === "" || p.jti.length > MAX_JTI_CHARS) return fail("proof_malformed");
  if (p.htm !== e.method) return fail("htm");
  if (typeof p.htu !== "string" || !sameTarget(p.htu, e.uri)) return fail("htu");
  if (!Number.isSafeInteger(p.iat) || Math.abs((p.iat as number) * 1000 - e.now) > PROOF_WINDOW_MS) return fail("iat");
  if (e.accessToken !== undefined && p.ath !== (await accessTokenHash(e.accessToken))) return fail("ath");
  if (p.nonce !== undefined && typeof p.nonce !== "string") return fail("proof_malformed");
  return { ok: true, proof: { jkt: await jwkThumbprint(jwk), jti: p.jti, iat: (p.iat as number) * 1000, nonce: p.nonce ?? null } };
}

/** ath: base64url(SHA-256(ASCII access token)) (RFC 9449 §4.2). */
export async function accessTokenHash(token: string): Promise<string> {
  return base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(token))));
}

/** htu against the request's URI, both without query and fragment (RFC 9449 §4.3 step 9), after URL normalisation. */
function sameTarget(htu: string, uri: string): boolean {
  if (!URL.canParse(htu)) return false;
  const a = new URL(htu);
  const b = new URL(uri);
  return a.origin === b.origin && a.pathname === b.pathname;
}

function jsonPart(s: string): Record<string, unknown> | null {
  const bytes = bytesPart(s);
  if (bytes === null) return null;
  try {
    const v: unknown = JSON.parse(fromUtf8(bytes));
    return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function bytesPart(s: string): Uint8Array<ArrayBuffer> | null {
  try {
    return base64urlDecodeUnpadded(s);
  } catch {
    return null;
  }
}

function fail(reason: DpopProofReason): ProofVerdict {
  return { ok: false, reason };
}
