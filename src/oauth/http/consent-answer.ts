// POST /authorize: the owner's answer from the consent page. The form must come from the page this browser was
// shown (same origin, and the cookie that page set); an approval is the owner's signature over exactly this request,
// and only one submission ends the request, so one approval yields one code.
import { constantTimeEqual, sha256Hex } from "../../protocol/index.js";
import { checkApproval } from "../approval.js";
import { redirectWith, type OAuthError } from "./answers.js";
import { consentResponse } from "./authorize.js";
import { errorPage } from "./consent-page.js";
import { identityOf, type OAuthHandler } from "./context.js";
import { csrfCookieName, readCookie } from "./csrf-cookie.js";
import { CODE_TTL_MS } from "./lifetimes.js";
import { normalizeCode, randomToken } from "./random-codes.js";
import { readForm } from "./request-body.js";

export const answerConsent: OAuthHandler = async (ctx, { request, urls, fleetName }) => {
  const form = await readForm(request);
  if (form === null) return errorPage(400, "Invalid request", "The form could not be read.");
  const code = normalizeCode(form.get("request") ?? "");
  const r = ctx.store.request(code);
  if (r === null) return errorPage(400, "Unknown request", "This request is unknown, was already answered, or expired; start again from the app.");
  const origin = request.headers.get("Origin");
  const site = request.headers.get("Sec-Fetch-Site");
  const cookie = readCookie(request.headers.get("Cookie"), csrfCookieName(r.code));
  const posted = form.get("csrf") ?? "";
  const sameOrigin = (origin === null || origin === new URL(urls.issuer).origin) && (site === null || site === "same-origin" || site === "none");
  if (!sameOrigin || cookie === null || !constantTimeEqual(posted, r.csrf) || !constantTimeEqual(cookie, r.csrf)) {
    return errorPage(403, "Refused", "This form was not sent from the consent page this browser opened. Open the link from the app again.");
  }
  const now = ctx.clock.now();
  const back = (e: OAuthError) => redirectWith(r.redirectUri, { ...e, state: r.state, iss: urls.issuer });
  if (!(now < r.expiresAt)) {
    ctx.store.closeRequest(r.code);
    return back({ error: "access_denied", error_description: "the request expired before the owner approved it" });
  }
  if (form.get("decision") === "deny") {
    ctx.store.closeRequest(r.code);
    return back({ error: "access_denied", error_description: "the owner denied the request" });
  }
  if (form.get("decision") !== "approve") return errorPage(400, "Invalid request", "Choose Approve or Deny.");
  const approval = await checkApproval(form.get("approval") ?? "", r, identityOf(ctx), now, ctx.verify);
  const client = ctx.store.client(r.clientId);
  if (!approval.ok) return consentResponse(ctx, r, client?.name ?? r.clientId, urls, fleetName, 400, `Not approved: ${approval.why}. Run the command again and paste what it prints.`);
  if (!ctx.store.closeRequest(r.code)) return errorPage(400, "Unknown request", "This request was already answered.");
  const authCode = randomToken(32);
  ctx.store.createGrant({
    id: crypto.randomUUID(), clientId: r.clientId, trust: approval.trust, scope: approval.scope, resource: r.resource, redirectUri: r.redirectUri,
    codeChallenge: r.codeChallenge, codeHash: await sha256Hex(authCode), codeExpiresAt: now + CODE_TTL_MS, createdAt: now,
  });
  return redirectWith(r.redirectUri, { code: authCode, state: r.state, iss: urls.issuer });
};
