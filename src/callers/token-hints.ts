// What to do about a refused signed token, one sentence per reason: the same words from both hosts, since both
// refuse through tokenRefusal (auth.ts). The reason stays the machine-readable part; the hint is for the person.
import type { TokenReason } from "../protocol/index.js";

/** Where the client docs show the configs that work (docs/clients.md). */
export const CLIENTS_DOC = "docs/clients.md#the-reference-motebit-client-mcp-client";

const WHAT_WE_TAKE = 'this server takes a fresh token per request with aud "mcp:call", sub = its motebit_id (GET /health) and exp at most 5 minutes after iat';

const HINTS: Record<TokenReason, string> = {
  token_unparseable: `Send "Bearer motebit:<payload>.<signature>" (base64url, suite motebit-jwt-ed25519-v1): ${WHAT_WE_TAKE}.`,
  missing_claims: `The token needs mid, did, iat, exp, jti, aud and sub: ${WHAT_WE_TAKE}.`,
  suite_unsupported: `Sign with suite motebit-jwt-ed25519-v1: ${WHAT_WE_TAKE}.`,
  no_key_for_caller: "This server holds no key for your mid: ask its operator to pin your public key in knownCallers, or call through the relay this server trusts.",
  signature_invalid: "The signature does not verify under the key pinned for your mid: sign with that motebit's own private key.",
  expired: `Mint a new token for every request (iat = now; 60 s of clock skew is allowed): ${WHAT_WE_TAKE}.`,
  not_yet_valid: "The token's iat is in the future beyond 60 s of clock skew: check this machine's clock.",
  lifetime_too_long: "The token's exp may be at most 5 minutes after iat: mint short-lived tokens, a new one per request.",
  lifetime_invalid: "The token's exp must come after its iat (both epoch milliseconds).",
  audience_mismatch: `Set aud to "mcp:call": ${WHAT_WE_TAKE}.`,
  subject_mismatch: "Set sub to this server's motebit_id (GET /health gives it; for a fleet motebit GET /m/<name>/health).",
  jti_replayed: `Each token is good for one request: mint a new one (new jti) for every HTTP request; a fixed Authorization header works only with a static token (see ${CLIENTS_DOC}).`,
  caller_blocked: "This server's operator has blocked your motebit.",
};

/** @motebit/mcp-client's per-connection token (`callerPrivateKey`): minted once per connection for aud task:submit, no sub. */
const REFERENCE_CLIENT_HINT =
  `This looks like @motebit/mcp-client's per-connection token (aud "task:submit", no sub): give McpClientAdapter credentialSource: motebitCredentialSource({ privateKey }) from motebit-edge/client instead of callerPrivateKey (see ${CLIENTS_DOC}).`;

export function tokenHint(reason: TokenReason, looksLikeReferenceClient = false): string {
  return looksLikeReferenceClient ? REFERENCE_CLIENT_HINT : HINTS[reason];
}

/** The reference client's per-connection token: aud task:submit and no sub at all. */
export function isReferenceClientToken(claims: { aud: string; sub?: string }): boolean {
  return claims.aud === "task:submit" && claims.sub === undefined;
}
