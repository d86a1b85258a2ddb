// POST /revoke: RFC 7009 token revocation, so a host can sign out. Revoking a refresh token, or an access token,
// ends the grant it belongs to: every token of that grant stops working at once (the grant is re-read on every
// request, ../standing.ts), as when the owner revokes. The client authenticates as at the token endpoint. A token
// this server does not know, or no longer honours, is answered 200 and changes nothing (RFC 7009 §2.2).
import { constantTimeEqual, sha256Hex } from "../../protocol/index.js";
import { OAUTH_TOKEN_PREFIX, verifyAccessToken } from "../access-token.js";
import { tokenError } from "./answers.js";
import { authenticateClient } from "./client-authentication.js";
import { identityOf, type OAuthContext, type OAuthHandler } from "./context.js";
import { readForm } from "./request-body.js";

const revoked = () => new Response(null, { status: 200, headers: { "Cache-Control": "no-store" } });

export const revoke: OAuthHandler = async (ctx, { request, urls, source }) => {
  const form = await readForm(request);
  if (form === null) return tokenError(400, "invalid_request", "the body must be application/x-www-form-urlencoded, each parameter once, at most 16 KiB");
  const client = await authenticateClient(ctx, request, form, urls, source);
  if (!client.ok) return client.refusal;
  const presented = form.get("token");
  if (presented === undefined || presented === "") return tokenError(400, "invalid_request", "token is required");
  // token_type_hint is only a hint (§2.1): the token's own form says what it is.
  const grant = presented.startsWith(OAUTH_TOKEN_PREFIX) ? await accessTokenGrant(ctx, presented) : await refreshTokenGrant(ctx, presented);
  if (grant === null) return revoked();
  if (grant.clientId !== client.clientId) return tokenError(400, "unauthorized_client", "the token was issued to another client");
  ctx.store.revokeGrant(grant.id, ctx.clock.now());
  return revoked();
};

/** The grant of an access token this motebit signed and that has not expired (an expired one grants nothing). */
async function accessTokenGrant(ctx: OAuthContext, presented: string): Promise<{ id: string; clientId: string } | null> {
  const v = await verifyAccessToken(presented, identityOf(ctx), ctx.clock.now(), ctx.verify);
  return v.ok ? { id: v.claims.gid, clientId: v.claims.cid } : null;
}

/** The grant of a refresh token (`<grant id>.<secret>`) that is the grant's current one or one it rotated out. */
async function refreshTokenGrant(ctx: OAuthContext, presented: string): Promise<{ id: string; clientId: string } | null> {
  const g = ctx.store.grant(presented.slice(0, Math.max(0, presented.indexOf("."))));
  if (g === null || g.revokedAt !== null) return null;
  const hash = await sha256Hex(presented);
  const issued = (g.refreshHash !== null && constantTimeEqual(hash, g.refreshHash)) || ctx.store.rotatedAt(g.id, hash) !== null;
  return issued ? { id: g.id, clientId: g.clientId } : null;
}
