// A request beyond the caller's OAuth grant, answered as RFC 6750 §3.1 and MCP 2025-11-25's step-up say: HTTP 403
// with `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`, the scope the client re-authorizes with
// (what it holds and what it lacked), and a JSON body as every auth refusal has. Nothing ran (admit.ts refused first).
import type { ScopeChallenge } from "../mcp/insufficient-scope.js";
import type { OAuthUrls } from "../oauth/urls.js";
import { jsonResponse } from "./responses.js";

export function scopeChallengeResponse(c: ScopeChallenge): Response {
  return jsonResponse(403, {
    error: "insufficient_scope",
    scope: c.scope,
    reason: c.message,
    hint: "authorize again asking for this scope (the MCP SDK client does this on its own); the owner approves the wider grant at the consent page",
  }, { "WWW-Authenticate": `Bearer error="insufficient_scope", scope="${c.scope}", error_description="${headerSafe(c.message)}"` });
}

/** RFC 6750 §3: error_description is printable ASCII without a quote or backslash; a served tool's name may hold anything. */
function headerSafe(text: string): string {
  return text.replace(/[^\x20-\x7e]|["\\]/g, "?");
}

/**
 * The challenge with where to start (RFC 9728 §5.1), added by the app, which knows the URLs (the endpoint that
 * refused may be in the Durable Object); any other 403 (a foreign Origin) is left as it is.
 */
export function withChallengeMetadata(res: Response, urls: OAuthUrls | null): Response {
  const challenge = res.headers.get("WWW-Authenticate");
  if (urls === null || challenge === null || !challenge.startsWith('Bearer error="insufficient_scope"')) return res;
  const out = new Response(res.body, res);
  out.headers.set("WWW-Authenticate", `${challenge}, resource_metadata="${urls.resourceMetadata}"`);
  return out;
}
