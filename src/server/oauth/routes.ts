// The OAuth routes of a motebit's HTTP app, all public (they come before the fail-closed auth middleware): the two
// metadata documents are answered from the URL alone; everything with state goes to the backend's authorization
// server (the motebit's Durable Object at the edge, the process in Node). Each 401 names the resource metadata.
import type { Context, Hono } from "hono";
import { authorizationServerMetadata, protectedResourceMetadata } from "../../oauth/metadata.js";
import { AS_METADATA_SUFFIX, oauthUrls, RESOURCE_METADATA_SUFFIX, type OAuthUrls } from "../../oauth/urls.js";
import type { ServerBackend } from "../backend.js";
import { jsonResponse } from "../responses.js";
import { withCappedBody } from "./body-cap.js";

/** The motebit's path prefix in this request: as many leading segments as `basePath` has ("" without one). */
function prefixOf(pathname: string, basePath: string | undefined): string {
  if (basePath === undefined) return "";
  const n = basePath.split("/").filter((s) => s !== "").length;
  return "/" + pathname.split("/").filter((s) => s !== "").slice(0, n).join("/");
}

export function requestUrls(request: Request, basePath: string | undefined): OAuthUrls {
  const u = new URL(request.url);
  return oauthUrls(u.origin, prefixOf(u.pathname, basePath));
}

/** A fleet motebit's name when the prefix is /m/<name>, so its consent page names the operator's command. */
function fleetNameOf(urls: OAuthUrls): string | null {
  return /\/m\/([^/]+)$/.exec(new URL(urls.issuer).pathname)?.[1] ?? null;
}

const PUBLIC_JSON = { "Cache-Control": "public, max-age=300" };

/**
 * `app` is typed loosely: its own env type stays in app.ts. `sourceOf` names the caller's address as the host saw
 * it (the socket's in Node, CF-Connecting-IP at the edge), the key of the OAuth endpoints' per-source limits.
 */
export function mountOAuth(app: Hono<any>, backendOf: (c: Context) => ServerBackend, basePath: string | undefined, sourceOf: (c: Context) => string): void {
  const prm = (c: Context) => jsonResponse(200, protectedResourceMetadata(requestUrls(c.req.raw, basePath)), PUBLIC_JSON);
  app.get(`${RESOURCE_METADATA_SUFFIX}/mcp`, prm);
  app.get(RESOURCE_METADATA_SUFFIX, prm);
  app.get(AS_METADATA_SUFFIX, (c) => jsonResponse(200, authorizationServerMetadata(requestUrls(c.req.raw, basePath)), PUBLIC_JSON));
  const stateful = async (c: Context) => {
    const backend = backendOf(c);
    if (backend.handleOAuth === undefined) return jsonResponse(404, { error: "not found" });
    const request = await withCappedBody(c.req.raw);
    if (request instanceof Response) return request;
    const urls = requestUrls(request, basePath);
    return backend.handleOAuth(request, urls, fleetNameOf(urls), sourceOf(c));
  };
  for (const path of ["/authorize", "/token", "/register", "/oauth/owner", "/oauth/requests/:code"]) app.all(path, stateful);
}

/** Every 401 tells an MCP client where to start (RFC 9728 §5.1), keeping its JSON body. */
export function withResourceMetadata(res: Response, request: Request, basePath: string | undefined): Response {
  const out = new Response(res.body, res);
  out.headers.set("WWW-Authenticate", `Bearer realm="motebit", resource_metadata="${requestUrls(request, basePath).resourceMetadata}"`);
  return out;
}
