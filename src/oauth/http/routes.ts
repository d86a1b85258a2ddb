// The OAuth routes of a motebit's HTTP app, all public (they come before the fail-closed auth middleware): the two
// metadata documents are answered from the URL alone; everything with state goes to the backend's authorization
// server (the motebit's Durable Object at the edge, the process in Node). Each 401 names the resource metadata.
// Every URL is built on the base the host vouches for (public-base.ts), never on the caller's Host.
import type { Context, Hono } from "hono";
import { authorizationServerMetadata, protectedResourceMetadata } from "../metadata.js";
import { AS_METADATA_SUFFIX, FLEET_PREFIX, OAUTH_ENDPOINT_LIST, RESOURCE_METADATA_SUFFIX } from "../paths.js";
import { oauthUrls, type OAuthUrls } from "../urls.js";
import type { ServerBackend } from "../../server/backend.js";
import { jsonResponse } from "../../server/responses.js";
import { withCappedBody } from "./body-cap.js";
import type { PublicBase } from "./public-base.js";
import { dpopChallenge } from "../dpop/challenge.js";

/** The motebit's path prefix in this request: as many leading segments as `basePath` has ("" without one). */
function prefixOf(pathname: string, basePath: string | undefined): string {
  if (basePath === undefined) return "";
  const n = basePath.split("/").filter((s) => s !== "").length;
  return "/" + pathname.split("/").filter((s) => s !== "").slice(0, n).join("/");
}

/** This request's motebit's URLs on the trusted base; null when the request came in under a name we do not vouch for. */
export function requestUrls(request: Request, basePath: string | undefined, base: PublicBase): OAuthUrls | null {
  const b = base(request);
  return b === null ? null : oauthUrls(b, prefixOf(new URL(request.url).pathname, basePath));
}

/** RFC 9110 §15.5.20: this server does not answer OAuth (or say who it is) under the name the request used. */
export const misdirected = () =>
  jsonResponse(421, {
    error: "misdirected request",
    hint: "this motebit does not serve OAuth under the host this request named; use its own address, or set publicUrl (MOTEBIT_PUBLIC_URL) to the URL clients use",
  });

/** A fleet motebit's name when the prefix is /m/<name>, so its consent page names the operator's command. */
export function fleetNameOf(urls: OAuthUrls): string | null {
  return new RegExp(`${FLEET_PREFIX}([^/]+)$`).exec(new URL(urls.issuer).pathname)?.[1] ?? null;
}

export const PUBLIC_JSON = { "Cache-Control": "public, max-age=300" };

/**
 * `app` is typed loosely: its own env type stays in app.ts. `sourceOf` names the caller's address as the host saw
 * it (the socket's in Node, CF-Connecting-IP at the edge), the key of the OAuth endpoints' per-source limits.
 */
export function mountOAuth(
  app: Hono<any>,
  backendOf: (c: Context) => ServerBackend,
  basePath: string | undefined,
  baseOf: (c: Context) => PublicBase,
  sourceOf: (c: Context) => string,
): void {
  const urlsOf = (c: Context) => requestUrls(c.req.raw, basePath, baseOf(c));
  const prm = (c: Context) => {
    const urls = urlsOf(c);
    return urls === null ? misdirected() : jsonResponse(200, protectedResourceMetadata(urls), PUBLIC_JSON);
  };
  app.get(`${RESOURCE_METADATA_SUFFIX}/mcp`, prm);
  app.get(RESOURCE_METADATA_SUFFIX, prm);
  app.get(AS_METADATA_SUFFIX, (c) => {
    const urls = urlsOf(c);
    return urls === null ? misdirected() : jsonResponse(200, authorizationServerMetadata(urls), PUBLIC_JSON);
  });
  // Any other discovery document (OpenID Connect's, which MCP clients try after RFC 8414's) is not here: 404, not 401.
  app.all("/.well-known/*", () => jsonResponse(404, { error: "not found" }));
  const stateful = async (c: Context) => {
    const backend = backendOf(c);
    const urls = urlsOf(c);
    if (urls === null) return misdirected();
    const request = await withCappedBody(c.req.raw);
    if (request instanceof Response) return request;
    return backend.handleOAuth(request, urls, fleetNameOf(urls), sourceOf(c));
  };
  for (const { endpoint: e } of OAUTH_ENDPOINT_LIST) app.all(e.param === undefined ? e.path : `${e.path}:${e.param}`, stateful);
}

/**
 * Every 401 tells an MCP client where to start (RFC 9728 §5.1), keeping its JSON body, and offers DPoP beside Bearer
 * (RFC 9449 §7.1; a DPoP refusal's own challenge kept); under a name we do not vouch for, nowhere.
 */
export function withResourceMetadata(res: Response, urls: OAuthUrls | null): Response {
  const out = new Response(res.body, res);
  const own = res.headers.get("WWW-Authenticate");
  const dpop = own !== null && own.startsWith("DPoP ") ? own : dpopChallenge();
  out.headers.set("WWW-Authenticate", urls === null ? 'Bearer realm="motebit"' : `Bearer realm="motebit", resource_metadata="${urls.resourceMetadata}", ${dpop}`);
  return out;
}
