// grant_type=refresh_token: rotating refresh tokens (OAuth 2.1 §4.3.1). The current token is used once; the same
// token again within a short grace gets the same new pair (parallel refreshes, a lost answer); a rotated-out token
// after that means someone holds a copy, and the grant ends.
import { base64urlEncode, constantTimeEqual, sha256Hex, utf8 } from "../../protocol/index.js";
import type { OAuthUrls } from "../urls.js";
import { tokenError } from "./answers.js";
import type { OAuthContext } from "./context.js";
import { REFRESH_REUSE_GRACE_MS, REFRESH_TTL_MS } from "./lifetimes.js";
import type { Form } from "./request-body.js";
import { narrowedScope } from "./refresh-scope.js";
import { tokenAnswer } from "./token-answer.js";

const REFRESH_CONTEXT = "motebit-oauth-refresh-v1";
/** <grant id (a UUID)>.<32 random or derived bytes, base64url>: the only shape of refresh token this server issues. */
const REFRESH_TOKEN_SHAPE = /^([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.[A-Za-z0-9_-]{43}$/;

export async function refresh(ctx: OAuthContext, form: Form, clientId: string, urls: OAuthUrls, jkt: string | null): Promise<Response> {
  const presented = form.get("refresh_token");
  if (presented === undefined) return tokenError(400, "invalid_request", "refresh_token is required");
  // Not the shape this server issues (<grant id>.<43 base64url characters>): unknown, and nothing changes.
  const grantId = REFRESH_TOKEN_SHAPE.exec(presented)?.[1];
  const g = grantId === undefined ? null : ctx.store.grant(grantId);
  const now = ctx.clock.now();
  if (g === null || g.revokedAt !== null || g.refreshHash === null) return tokenError(400, "invalid_grant", "the refresh token is unknown or revoked");
  if (g.clientId !== clientId) return tokenError(400, "invalid_grant", "the refresh token was issued to another client");
  if (g.resource !== urls.resource) return tokenError(400, "invalid_target", "the refresh token was issued for another resource");
  const scope = narrowedScope(form.get("scope"), g.scope);
  if (scope === null) return tokenError(400, "invalid_scope", `a refresh may ask for the grant's scopes (${g.scope}) or fewer, never more`);
  // Checked before anything changes: without the bound key, a stolen refresh token neither refreshes nor revokes.
  const bound = ctx.dpop.grantKeys.of(g.id);
  if (bound !== null && bound !== jkt) {
    return tokenError(400, "invalid_grant", jkt === null ? "the refresh token is DPoP-bound: send a DPoP proof by the key it was issued with" : "the refresh token is bound to another DPoP key");
  }
  const facts = { grantId: g.id, clientId: g.clientId, trust: g.trust, scope, resource: g.resource, jkt };
  const hash = await sha256Hex(presented);
  if (constantTimeEqual(hash, g.refreshHash)) {
    if (g.refreshExpiresAt === null || !(now < g.refreshExpiresAt)) return tokenError(400, "invalid_grant", "the refresh token expired");
    const next = await successor(ctx, presented);
    if (ctx.store.rotateRefresh(g.id, hash, await sha256Hex(next), now + REFRESH_TTL_MS, now, now - REFRESH_TTL_MS)) {
      return tokenAnswer(ctx, facts, next, now, now);
    }
    // A concurrent refresh of the same token rotated it first: answered as a repeat, below.
  }
  const rotatedAt = ctx.store.rotatedAt(g.id, hash);
  // Never issued for this grant (a guess, junk after a readable grant id): refused, and the grant is untouched.
  if (rotatedAt === null) return tokenError(400, "invalid_grant", "the refresh token is unknown or revoked");
  const next = await successor(ctx, presented);
  const current = ctx.store.grant(g.id);
  if (now - rotatedAt <= REFRESH_REUSE_GRACE_MS && current !== null && current.revokedAt === null && current.refreshHash === (await sha256Hex(next))) {
    // The same refresh again within the window, and its successor not yet used: the same pair, since both are
    // derived from the token and the rotation time.
    return tokenAnswer(ctx, facts, next, rotatedAt, now);
  }
  // A rotated-out refresh token came back after the window, or after its successor was used: the grant ends.
  ctx.store.revokeGrant(g.id, now);
  return tokenError(400, "invalid_grant", "the refresh token was already used; the grant is revoked");
}

/**
 * The refresh token that replaces `presented`: a function of it and the motebit's key (Ed25519 signatures are
 * deterministic, RFC 8032), so a repeat within the grace window gets the same one without any token kept in clear.
 */
async function successor(ctx: OAuthContext, presented: string): Promise<string> {
  const sig = await ctx.signer.sign(utf8(`${REFRESH_CONTEXT}.${presented}`));
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new Uint8Array(sig)));
  return `${presented.slice(0, presented.indexOf("."))}.${base64urlEncode(digest)}`;
}
