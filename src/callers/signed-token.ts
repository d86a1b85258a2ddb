// A `motebit:` signed token, checked the same way wherever one is presented (an HTTP bearer at /mcp, a
// motebit_task dispatch_token): its claims for the audience, the caller's key, the signature and the caller's
// standing (docs/protocol.md §5). The single-use jti is consumed later, by the store that serialises requests
// (replay-store.ts), so the result carries the claim to consume.
import type { CallerTrust, Principal } from "../principal.js";
import { parseBearerToken, verifyParsedToken, type TokenReason, type VerifySignature } from "../protocol/index.js";
import type { KnownCallers } from "../settings/known-callers.js";
import type { StaticTokens } from "../settings/static-tokens.js";
import { isReferenceClientToken, tokenHint } from "./token-hints.js";

export type PeerPrincipal = Extract<Principal, { kind: "peer" }>;

/** The token's jti and how long it must be remembered (exp + skew: after that the token is refused as expired anyway). */
export interface JtiClaim {
  jti: string;
  keepUntil: number;
}

export interface AuthSettings {
  /** Named static tokens, kept only as SHA-256: each name is the caller `static:<name>`. */
  staticTokens: StaticTokens;
  knownCallers: KnownCallers;
  relayTrust: string | null;
  relayId: string | null;
  /** The bearer a relay presents when it forwards a task (today's reference relay sends its API token); null = none. */
  relayForwardToken?: string | null;
}

export interface ServerIdentity {
  motebitId: string;
  publicKeyHex: string;
}

export type AuthRefusal = { status: 401; body: { error: string; reason?: string; hint?: string } };

/**
 * An OAuth access token's DPoP side (RFC 9449), set only when it is bound (jkt) or was sent as `DPoP <token>`: the
 * app then checks the proof (src/oauth/http/dpop-resource.ts). A Bearer token without cnf carries none.
 */
export interface TokenBinding {
  scheme: "Bearer" | "DPoP";
  /** The token as presented, whose hash the proof must carry (ath). */
  token: string;
  /** The thumbprint of the key the token is bound to (cnf.jkt), null for an unbound token. */
  jkt: string | null;
}

/** `audience`: an OAuth access token's resource (its aud), which the app checks against the request's own. */
export type AuthResult = ({ ok: true; principal: PeerPrincipal; jti: JtiClaim | null; audience?: string; dpop?: TokenBinding }) | ({ ok: false } & AuthRefusal);

export const MCP_CALL_AUDIENCE = "mcp:call";
export const TOKEN_SKEW_MS = 60_000;
export const MAX_TOKEN_LIFETIME_MS = 5 * 60_000;

/** Every signed-token refusal: the reason, and a one-sentence hint saying what this server takes. */
export function tokenRefusal(reason: TokenReason, looksLikeReferenceClient = false): AuthRefusal {
  return { status: 401, body: { error: "invalid motebit token", reason, hint: tokenHint(reason, looksLikeReferenceClient) } };
}

export function refuse(r: AuthRefusal): AuthResult {
  return { ok: false, ...r };
}

/**
 * A `motebit:` token's signature and claims for `audience` (mcp:call for a bearer, task:dispatch for a
 * motebit_task dispatch_token). The caller still has to consume the returned jti.
 */
export async function verifySignedToken(
  token: string,
  settings: AuthSettings,
  identity: ServerIdentity,
  now: number,
  audience: string = MCP_CALL_AUDIENCE,
  verify?: VerifySignature,
): Promise<AuthResult> {
  const parsed = parseBearerToken(token);
  if (!parsed.ok) return refuse(tokenRefusal(parsed.reason));
  const { claims } = parsed;
  // Cheap policy checks first: a token for another audience or another server costs no signature check.
  if (claims.aud !== audience) {
    // A known caller sending the reference client's per-connection token is told the one config change that works.
    const referenceClient = audience === MCP_CALL_AUDIENCE && isReferenceClientToken(claims) && (settings.knownCallers.has(claims.mid) || claims.mid === identity.motebitId);
    return refuse(tokenRefusal("audience_mismatch", referenceClient));
  }
  if (claims.sub !== identity.motebitId) return refuse(tokenRefusal("subject_mismatch"));
  // A token that expires before it was issued is malformed, whatever the clock skew would let through.
  if (claims.exp <= claims.iat) return refuse(tokenRefusal("lifetime_invalid"));
  if (claims.exp - claims.iat > MAX_TOKEN_LIFETIME_MS) return refuse(tokenRefusal("lifetime_too_long"));

  const caller = resolveCallerKey(claims.mid, settings, identity);
  if (caller === null) return refuse(tokenRefusal("no_key_for_caller"));
  const verdict = await verifyParsedToken(parsed, caller.publicKeyHex, { now, skewMs: TOKEN_SKEW_MS, verify });
  if (!verdict.ok) {
    // Under the relay key a bad signature only means the relay did not sign it: we hold no key for this caller.
    const reason = caller.via === "relay" && verdict.reason === "signature_invalid" ? "no_key_for_caller" : verdict.reason;
    return refuse(tokenRefusal(reason));
  }
  if (caller.trust === "blocked") return refuse(tokenRefusal("caller_blocked"));
  return {
    ok: true,
    principal: { kind: "peer", callerId: caller.callerId, via: caller.via, trust: caller.trust },
    jti: { jti: claims.jti, keepUntil: claims.exp + TOKEN_SKEW_MS },
  };
}

/** The relay as a caller, however it proved itself (its signed token or its forward bearer): a verified peer. */
export function relayPrincipal(relayId: string | null): PeerPrincipal {
  return { kind: "peer", callerId: `relay:${relayId ?? "relay"}`, via: "relay", trust: "verified" };
}

interface CallerKey {
  publicKeyHex: string;
  callerId: string;
  via: PeerPrincipal["via"];
  trust: CallerTrust;
}

/**
 * Where the key of `mid` comes from: our own key, a pinned known caller, else the pinned relay key — for the
 * configured relayId only, or, without one, for any mid not otherwise known. The relay key verifies nothing else.
 */
function resolveCallerKey(mid: string, settings: AuthSettings, identity: ServerIdentity): CallerKey | null {
  // Self-signed tokens are minted by this motebit for servers it calls, so they can be replayed at us: a peer.
  if (mid === identity.motebitId) return { publicKeyHex: identity.publicKeyHex, callerId: mid, via: "self_signed", trust: "verified" };
  const relay = settings.relayTrust === null ? null : { publicKeyHex: settings.relayTrust, callerId: `relay:${mid}`, via: "relay" as const, trust: "verified" as const };
  if (relay !== null && settings.relayId !== null && mid === settings.relayId) return relay;
  const known = settings.knownCallers.get(mid);
  if (known) return { publicKeyHex: known.publicKeyHex, callerId: mid, via: "signed_token", trust: known.trust };
  return relay !== null && settings.relayId === null ? relay : null;
}
