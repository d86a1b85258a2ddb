// Who is calling, decided once per HTTP request from its Authorization header (docs/protocol.md §5).
// Fail-closed: no credential, no access. Signature checks run here, outside the Durable Object; a signed token is
// checked by src/callers/signed-token.ts, whose result carries the jti to consume later.
import { constantTimeEqual, SIGNED_TOKEN_PREFIX, type VerifySignature } from "../protocol/index.js";
import { matchStaticToken, staticCallerId, staticTokenTag } from "../settings/static-tokens.js";
import { OAUTH_TOKEN_PREFIX, verifyAccessToken } from "../oauth/access-token.js";
import { MCP_CALL_AUDIENCE, refuse, relayPrincipal, verifySignedToken, type AuthRefusal, type AuthResult, type AuthSettings, type ServerIdentity } from "../callers/signed-token.js";

export const UNAUTHORIZED: AuthRefusal = { status: 401, body: { error: "unauthorized" } };
export const UNAUTHORIZED_NO_TOKEN_CONFIGURED: AuthRefusal = {
  status: 401,
  body: { error: "unauthorized — set authToken or use a motebit signed token" },
};

/**
 * `Authorization` header value → principal, or the exact 401 to send. `now` is epoch ms. `verify` is the host's
 * Ed25519 check (absent: WebCrypto).
 */
export async function authenticate(
  authorization: string | null,
  settings: AuthSettings,
  identity: ServerIdentity,
  now: number,
  verify?: VerifySignature,
): Promise<AuthResult> {
  const match = authorization === null ? null : /^(Bearer|DPoP)[ \t]+(.+)$/i.exec(authorization.trim());
  const presented = match ? match[2].trim() : null;
  // The DPoP scheme (RFC 9449 §7.1) is for OAuth access tokens only.
  const dpopScheme = match !== null && match[1].toLowerCase() === "dpop";
  if (dpopScheme && !presented!.startsWith(OAUTH_TOKEN_PREFIX)) return refuse(UNAUTHORIZED);
  if (presented !== null && presented.startsWith(SIGNED_TOKEN_PREFIX)) {
    return verifySignedToken(presented.slice(SIGNED_TOKEN_PREFIX.length), settings, identity, now, MCP_CALL_AUDIENCE, verify);
  }
  // An OAuth access token this motebit issued (src/oauth/): its grant's standing is checked where the grants are.
  if (presented !== null && presented.startsWith(OAUTH_TOKEN_PREFIX)) {
    const v = await verifyAccessToken(presented, identity, now, verify);
    if (!v.ok) return refuse({ status: 401, body: { error: "invalid oauth token", reason: v.reason } });
    const jkt = v.claims.cnf?.jkt ?? null;
    // A Bearer token without cnf (the common case) carries nothing more than before.
    if (!dpopScheme && jkt === null) return { ok: true, principal: v.principal, jti: null, audience: v.claims.aud };
    return { ok: true, principal: v.principal, jti: null, audience: v.claims.aud, dpop: { scheme: dpopScheme ? "DPoP" : "Bearer", token: presented, jkt } };
  }
  // The relay's forward bearer is checked first and on its own: it never grants more than a relay-signed token.
  const forward = settings.relayForwardToken ?? null;
  if (presented !== null && forward !== null && constantTimeEqual(presented, forward)) {
    return { ok: true, principal: relayPrincipal(settings.relayId), jti: null };
  }
  if (settings.staticTokens.size === 0 && forward === null) return refuse(UNAUTHORIZED_NO_TOKEN_CONFIGURED);
  const named = presented === null ? null : matchStaticToken(presented, settings.staticTokens);
  if (named === null) return refuse(UNAUTHORIZED);
  const [name, token] = named;
  // A static token is a secret the operator handed out: a peer of the trust it was given, never the owner.
  if (token.trust === "blocked") return refuse(UNAUTHORIZED);
  return { ok: true, principal: { kind: "peer", callerId: staticCallerId(name), via: "static_token", trust: token.trust, credential: staticTokenTag(token) }, jti: null };
}

