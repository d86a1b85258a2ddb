// POST /token: tokens for this motebit's /mcp only (RFC 8707). An authorization code is redeemed here (PKCE binds
// it); a refresh token is rotated in refresh.ts; a keyed client's client_credentials in client-credentials.ts.
import { base64urlEncode, constantTimeEqual, sha256Hex, utf8 } from "../../protocol/index.js";
import type { OAuthUrls } from "../urls.js";
import { tokenError } from "./answers.js";
import { authenticateClient } from "./client-authentication.js";
import { clientCredentials } from "./client-credentials.js";
import type { OAuthContext, OAuthHandler } from "./context.js";
import { REFRESH_TTL_MS } from "./lifetimes.js";
import { randomToken } from "./random-codes.js";
import { refresh } from "./refresh.js";
import { readForm, type Form } from "./request-body.js";
import { tokenAnswer } from "./token-answer.js";

export const token: OAuthHandler = async (ctx, { request, urls, source }) => {
  const form = await readForm(request);
  if (form === null) return tokenError(400, "invalid_request", "the body must be application/x-www-form-urlencoded, each parameter once, at most 16 KiB");
  const client = await authenticateClient(ctx, request, form, urls, source);
  if (!client.ok) return client.refusal;
  const clientId = client.clientId;
  const resource = form.get("resource");
  if (resource !== undefined && resource !== urls.resource) return tokenError(400, "invalid_target", `this server issues tokens for ${urls.resource} only`);
  const grantType = form.get("grant_type");
  // A DPoP proof binds what is issued to the client's key (RFC 9449 §5); without one, Bearer as before.
  const key = await ctx.dpop.tokenRequestKey(request, urls.token, ctx.clock.now());
  if (!key.ok) return key.response;
  if (grantType === "authorization_code") return redeemCode(ctx, form, clientId, urls, key.jkt);
  if (grantType === "refresh_token") return refresh(ctx, form, clientId, urls, key.jkt);
  if (grantType === "client_credentials") return clientCredentials(ctx, client, urls, key.jkt);
  return tokenError(400, "unsupported_grant_type", "grant_type must be authorization_code, refresh_token or client_credentials");
};

async function redeemCode(ctx: OAuthContext, form: Form, clientId: string, urls: OAuthUrls, jkt: string | null): Promise<Response> {
  const code = form.get("code");
  const verifier = form.get("code_verifier");
  if (code === undefined || verifier === undefined) return tokenError(400, "invalid_request", "code and code_verifier are required");
  const codeHash = await sha256Hex(code);
  const g = ctx.store.grantByCode(codeHash);
  const now = ctx.clock.now();
  if (g === null || g.revokedAt !== null || !(now < g.codeExpiresAt)) return tokenError(400, "invalid_grant", "the code is unknown, used or expired");
  if (g.clientId !== clientId) return tokenError(400, "invalid_grant", "the code was issued to another client");
  if (form.get("redirect_uri") !== g.redirectUri) return tokenError(400, "invalid_grant", "redirect_uri is not the one the code was issued for");
  if (g.resource !== urls.resource) return tokenError(400, "invalid_target", "the code was issued for another resource");
  if (!(await pkceMatches(verifier, g.codeChallenge))) return tokenError(400, "invalid_grant", "code_verifier does not match the code_challenge");
  const refreshToken = `${g.id}.${randomToken(32)}`;
  // The check-and-consume: of any number of redemptions of this code, one changes the row.
  if (!ctx.store.redeemCode(g.id, codeHash, await sha256Hex(refreshToken), now + REFRESH_TTL_MS)) {
    return tokenError(400, "invalid_grant", "the code is unknown, used or expired");
  }
  // A public client's refresh tokens are bound to the key it proved here (RFC 9449 §5).
  if (jkt !== null) ctx.dpop.grantKeys.bind(g.id, jkt);
  return tokenAnswer(ctx, { grantId: g.id, clientId: g.clientId, trust: g.trust, scope: g.scope, resource: g.resource, jkt }, refreshToken, now, now);
}

async function pkceMatches(verifier: string, challenge: string): Promise<boolean> {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier)));
  return constantTimeEqual(base64urlEncode(digest), challenge);
}
