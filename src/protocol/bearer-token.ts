import { base64urlDecode, base64urlEncode } from "./base64url.js";
import { fromUtf8, utf8 } from "./bytes.js";
import type { Signer, VerifySignature } from "./ed25519.js";
import { verifySignature } from "./ed25519.js";
import { SUITE_TOKEN } from "./suites.js";

export type TokenReason =
  | "token_unparseable" | "suite_unsupported" | "no_key_for_caller" | "signature_invalid" | "expired" | "not_yet_valid"
  | "lifetime_too_long" | "lifetime_invalid" | "audience_mismatch" | "subject_mismatch" | "jti_replayed" | "caller_blocked" | "missing_claims";

export interface TokenClaims {
  mid: string;
  did: string;
  iat: number;
  exp: number;
  jti: string;
  aud: string;
  sub?: string;
  suite: "motebit-jwt-ed25519-v1";
}

/** Tokens ride in an HTTP header; anything longer is not a token we minted. */
export const MAX_TOKEN_CHARS = 8192;
/** How a signed token is told apart from a static one: `Authorization: Bearer motebit:<token>` (docs/protocol.md §5). */
export const SIGNED_TOKEN_PREFIX = "motebit:";

/** The token itself, whether or not it arrived with its "motebit:" prefix. */
export function withoutSignedPrefix(token: string): string {
  return token.startsWith(SIGNED_TOKEN_PREFIX) ? token.slice(SIGNED_TOKEN_PREFIX.length) : token;
}
const DEFAULT_TTL_MS = 60_000;
const DEFAULT_SKEW_MS = 60_000;

/** Mint `base64url(P).base64url(sig)`; P is the JSON payload exactly as serialised here (docs/protocol.md §5). */
export async function mintBearerToken(
  c: { mid: string; did: string; aud: string; sub?: string; ttlMs?: number; iat?: number; jti?: string },
  signer: Signer,
): Promise<string> {
  const iat = c.iat ?? Date.now();
  const payload: TokenClaims = {
    mid: c.mid,
    did: c.did,
    iat,
    exp: iat + (c.ttlMs ?? DEFAULT_TTL_MS),
    jti: c.jti ?? crypto.randomUUID(),
    aud: c.aud,
    ...(c.sub !== undefined ? { sub: c.sub } : {}),
    suite: SUITE_TOKEN,
  };
  const p = utf8(JSON.stringify(payload));
  return base64urlEncode(p) + "." + base64urlEncode(await signer.sign(p));
}

/** A token that passed parseBearerToken: its claims and the exact bytes its signature covers. */
export interface ParsedToken {
  claims: TokenClaims;
  payloadBytes: Uint8Array;
  signature: Uint8Array;
}

/** Structure only: two base64url parts, a JSON object payload, the suite, the required claims. No signature or time check. */
export function parseBearerToken(token: string): ({ ok: true } & ParsedToken) | { ok: false; reason: TokenReason } {
  if (typeof token !== "string" || token.length === 0 || token.length > MAX_TOKEN_CHARS) return { ok: false, reason: "token_unparseable" };
  const dot = token.indexOf(".");
  if (dot <= 0) return { ok: false, reason: "token_unparseable" };
  let payloadBytes: Uint8Array;
  let signature: Uint8Array;
  let payload: unknown;
  try {
    payloadBytes = base64urlDecode(token.slice(0, dot));
    signature = base64urlDecode(token.slice(dot + 1));
    payload = JSON.parse(fromUtf8(payloadBytes));
  } catch {
    return { ok: false, reason: "token_unparseable" };
  }
  if (signature.length !== 64 || payload === null || typeof payload !== "object" || Array.isArray(payload)) {
    return { ok: false, reason: "token_unparseable" };
  }
  const p = payload as Record<string, unknown>;
  if (p.suite !== SUITE_TOKEN) return { ok: false, reason: "suite_unsupported" };
  const str = (v: unknown) => typeof v === "string" && v.length > 0;
  const num = (v: unknown) => typeof v === "number" && Number.isFinite(v);
  if (!str(p.mid) || !str(p.did) || !num(p.iat) || !num(p.exp) || !str(p.jti) || !str(p.aud)) return { ok: false, reason: "missing_claims" };
  if (p.sub !== undefined && typeof p.sub !== "string") return { ok: false, reason: "missing_claims" };
  const claims: TokenClaims = {
    mid: p.mid as string,
    did: p.did as string,
    iat: p.iat as number,
    exp: p.exp as number,
    jti: p.jti as string,
    aud: p.aud as string,
    ...(p.sub !== undefined ? { sub: p.sub as string } : {}),
    suite: SUITE_TOKEN,
  };
  return { ok: true, claims, payloadBytes, signature };
}

/**
 * The primitive: parse, suite, signature over the decoded payload bytes (never re-serialised), then
 * exp > now - skew and iat <= now + skew. Audience value, subject, lifetime and replay are server policy.
 */
export async function verifyBearerToken(
  token: string,
  publicKeyHex: string,
  opts?: { now?: number; skewMs?: number },
): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: TokenReason }> {
  const parsed = parseBearerToken(token);
  return parsed.ok ? verifyParsedToken(parsed, publicKeyHex, opts) : parsed;
}

/**
 * verifyBearerToken for a token already parsed (a caller that read its claims first does not parse it twice).
 * `verify` is the host's Ed25519 check; WebCrypto's verifySignature by default.
 */
export async function verifyParsedToken(
  parsed: ParsedToken,
  publicKeyHex: string,
  opts?: { now?: number; skewMs?: number; verify?: VerifySignature },
): Promise<{ ok: true; claims: TokenClaims } | { ok: false; reason: TokenReason }> {
  if (typeof publicKeyHex !== "string" || !/^[0-9a-fA-F]{64}$/.test(publicKeyHex)) return { ok: false, reason: "no_key_for_caller" };
  const verify = opts?.verify ?? verifySignature;
  if (!(await verify(publicKeyHex, parsed.payloadBytes, parsed.signature))) return { ok: false, reason: "signature_invalid" };
  const now = opts?.now ?? Date.now();
  const skew = opts?.skewMs ?? DEFAULT_SKEW_MS;
  if (!(parsed.claims.exp > now - skew)) return { ok: false, reason: "expired" };
  if (!(parsed.claims.iat <= now + skew)) return { ok: false, reason: "not_yet_valid" };
  return { ok: true, claims: parsed.claims };
}
