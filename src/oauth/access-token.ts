// OAuth access tokens: short-lived, signed by the motebit's own key, bound to its resource (aud) and to the grant
// they came from. Any place that knows the motebit's public key can check one (the Worker, before the Durable
// Object is asked); whether the grant still stands is asked of the store (standing.ts), so revocation is at once.
import type { CallerTrust, Principal } from "../principal.js";
import type { Signer, VerifySignature } from "../protocol/index.js";
import { ALL_SCOPES, parseScope } from "../policy/admission/oauth-scopes.js";
import { signEnvelope } from "./signed-envelope.js";
import { openAccessEnvelope } from "./verified-access-tokens.js";

/** `Authorization: Bearer motebit-oauth:<token>`: told apart from static and `motebit:` tokens by its prefix. */
export const OAUTH_TOKEN_PREFIX = "motebit-oauth:";
export const ACCESS_TOKEN_CONTEXT = "motebit-oauth-access-v1";
export const ACCESS_TOKEN_TTL_MS = 5 * 60_000;

export interface AccessClaims {
  /** The motebit (its motebit_id) that issued it and that alone accepts it. */
  sub: string;
  /** The resource (the motebit's MCP URL) it was issued for. */
  aud: string;
  cid: string;
  gid: string;
  /** What the owner granted: the trust, and the OAuth scopes (RFC 6749 §3.3, canonical; absent: all four). */
  trust: CallerTrust;
  scope?: string;
  /** Set when the token is DPoP-bound (RFC 9449 §6.1): the RFC 7638 thumbprint of the client's key. */
  cnf?: { jkt: string };
  iat: number;
  exp: number;
}

export type PeerFromToken = Extract<Principal, { kind: "peer" }>;

export type AccessVerdict = { ok: true; principal: PeerFromToken; claims: AccessClaims } | { ok: false; reason: "token_invalid" | "expired" | "subject_mismatch" };

export async function mintAccessToken(c: Omit<AccessClaims, "iat" | "exp">, now: number, signer: Signer): Promise<{ token: string; expiresIn: number }> {
  const claims: AccessClaims = { ...c, iat: now, exp: now + ACCESS_TOKEN_TTL_MS };
  return { token: OAUTH_TOKEN_PREFIX + (await signEnvelope(ACCESS_TOKEN_CONTEXT, claims, signer)), expiresIn: ACCESS_TOKEN_TTL_MS / 1000 };
}

/** The caller as `oauth:<client_id>`: a peer with the trust and scopes the owner gave at approval, never the owner. */
export function oauthPrincipal(clientId: string, trust: CallerTrust, grant: string, scope: string = ALL_SCOPES): PeerFromToken {
  return { kind: "peer", callerId: `oauth:${clientId}`, via: "oauth", trust, grant, scope };
}

/** `presented` with its prefix; `identity` the motebit asked. Checks the signature, subject and expiry. */
export async function verifyAccessToken(
  presented: string,
  identity: { motebitId: string; publicKeyHex: string },
  now: number,
  verify?: VerifySignature,
): Promise<AccessVerdict> {
  if (!presented.startsWith(OAUTH_TOKEN_PREFIX)) return { ok: false, reason: "token_invalid" };
  const p = await openAccessEnvelope(ACCESS_TOKEN_CONTEXT, presented.slice(OAUTH_TOKEN_PREFIX.length), identity.publicKeyHex, verify);
  if (p === null || !isClaims(p)) return { ok: false, reason: "token_invalid" };
  if (p.sub !== identity.motebitId) return { ok: false, reason: "subject_mismatch" };
  if (!(now < p.exp)) return { ok: false, reason: "expired" };
  return { ok: true, principal: oauthPrincipal(p.cid, p.trust, p.gid, p.scope), claims: p };
}

const TRUSTS: readonly string[] = ["first_contact", "verified", "trusted"];

function isClaims(p: Record<string, unknown>): p is AccessClaims & Record<string, unknown> {
  return typeof p.sub === "string" && typeof p.aud === "string" && typeof p.cid === "string" && typeof p.gid === "string" &&
    typeof p.trust === "string" && TRUSTS.includes(p.trust) && Number.isSafeInteger(p.iat) && Number.isSafeInteger(p.exp) &&
    (p.scope === undefined || (typeof p.scope === "string" && parseScope(p.scope) === p.scope)) && (p.cnf === undefined || isConfirmation(p.cnf));
}

function isConfirmation(cnf: unknown): boolean {
  return typeof cnf === "object" && cnf !== null && typeof (cnf as { jkt?: unknown }).jkt === "string";
}
