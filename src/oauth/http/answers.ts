// The authorization server's answers that are not a page: token errors, redirects back to the client, 429s.
import { jsonResponse } from "../../server/responses.js";
import { errorPage } from "./consent-page.js";

export type OAuthError = { error: string; error_description: string };

export function tokenError(status: 400 | 401, error: string, description: string): Response {
  return jsonResponse(status, { error, error_description: description }, { "Cache-Control": "no-store" });
}

/** A 303 to the client's registered redirect URI with `params` added (nulls left out). */
export function redirectWith(redirectUri: string, params: Record<string, string | null>): Response {
  const u = new URL(redirectUri);
  for (const [k, v] of Object.entries(params)) if (v !== null) u.searchParams.set(k, v);
  return new Response(null, { status: 303, headers: { Location: u.href, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" } });
}

/** 429 with Retry-After: a page for a browser at /authorize, JSON for everything else. */
export function tooManyRequests(retryAfterSeconds: number, page: boolean): Response {
  const why = `too many OAuth requests from this address; retry after ${retryAfterSeconds} s`;
  const res = page ? errorPage(429, "Too many requests", `${why}.`) : jsonResponse(429, { error: "rate_limited", error_description: why, hint: "wait Retry-After seconds, then retry" });
  res.headers.set("Retry-After", String(retryAfterSeconds));
  return res;
}
