// GET /authorize: the client's authorization request (code flow, PKCE S256 only, the resource bound to this
// motebit's /mcp) opens a consent request and shows the owner its page. Only a registered redirect URI receives
// anything, errors included (RFC 6749 §4.1.2.1); before that is known, errors are a page.
import { OAUTH_SCOPES, parseScope } from "../../policy/admission/oauth-scopes.js";
import { matchesRedirectUri } from "../client-metadata.js";
import type { ConsentRequest } from "../store.js";
import type { OAuthUrls } from "../urls.js";
import { redirectWith, type OAuthError } from "./answers.js";
import { consentHeaders, consentPage, errorPage } from "./consent-page.js";
import type { OAuthContext, OAuthHandler } from "./context.js";
import { csrfCookie } from "./csrf-cookie.js";
import { REQUEST_TTL_MS } from "./lifetimes.js";
import { randomToken, requestCode } from "./random-codes.js";

export const authorizeRequest: OAuthHandler = async (ctx, { request, urls, fleetName, source }) => {
  const q = new URL(request.url).searchParams;
  const duplicated = [...new Set([...q.keys()])].find((k) => q.getAll(k).length > 1);
  const clientId = q.get("client_id");
  const redirectUri = q.get("redirect_uri");
  if (duplicated !== undefined) return errorPage(400, "Invalid request", `The parameter ${duplicated} appears more than once.`);
  if (clientId === null || clientId === "") return errorPage(400, "Invalid request", "client_id is missing.");
  const resolved = await ctx.clients.resolve(clientId, source);
  if (!resolved.ok) return errorPage(400, "Unknown client", `This client cannot be authorized: ${resolved.why}.`);
  if (redirectUri === null || !matchesRedirectUri(resolved.client.redirectUris, redirectUri)) {
    return errorPage(400, "Redirect URI not registered", "The redirect_uri of this request is not one the client registered, so nothing is sent back to it.");
  }
  const state = q.get("state");
  const back = (e: OAuthError) => redirectWith(redirectUri, { ...e, state, iss: urls.issuer });
  if (q.get("response_type") !== "code") return back({ error: "unsupported_response_type", error_description: "only response_type=code is supported" });
  const challenge = q.get("code_challenge");
  if (q.get("code_challenge_method") !== "S256" || challenge === null || !/^[A-Za-z0-9_-]{43}$/.test(challenge)) {
    return back({ error: "invalid_request", error_description: "PKCE with code_challenge_method=S256 and a 43-character code_challenge is required" });
  }
  const resource = q.get("resource") ?? urls.resource;
  if (resource !== urls.resource) return back({ error: "invalid_target", error_description: `this server issues tokens for ${urls.resource} only` });
  const scope = parseScope(q.get("scope"));
  if (scope === null) return back({ error: "invalid_scope", error_description: `the scopes this server grants are ${OAUTH_SCOPES.join(", ")}` });
  const now = ctx.clock.now();
  const consent: ConsentRequest = {
    code: requestCode(), clientId, redirectUri, codeChallenge: challenge, state, resource, scope, csrf: randomToken(24), expiresAt: now + REQUEST_TTL_MS,
  };
  ctx.store.openRequest(consent, source, now);
  return consentResponse(ctx, consent, resolved.client.name, urls, fleetName, 200, undefined, csrfCookie(consent, urls));
};

/** The consent page for `r`, again with `problem` when a pasted approval was refused. */
export function consentResponse(
  ctx: OAuthContext, r: ConsentRequest, clientName: string, urls: OAuthUrls, fleetName: string | null, status: number, problem?: string, cookie: string | null = null,
): Response {
  const nonce = randomToken(16);
  const html = consentPage({
    clientName, clientId: r.clientId, redirectUri: r.redirectUri, scope: r.scope, motebitId: ctx.motebitId, code: r.code, csrf: r.csrf, action: urls.authorize,
    issuer: urls.issuer, fleetName, expiresInMinutes: Math.max(1, Math.ceil((r.expiresAt - ctx.clock.now()) / 60_000)), problem,
  }, nonce);
  return new Response(html, { status, headers: consentHeaders(nonce, r.redirectUri, cookie) });
}
