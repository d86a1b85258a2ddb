// The motebit's public discovery routes (before the fail-closed auth middleware, like OAuth's metadata): the MCP
// Server Card (at /mcp/server-card and /.well-known/mcp/server-card.json), the MCP Registry's server.json and the A2A Agent Card, each signed by the backend with the motebit's
// key, and the page at the motebit's root (motebit-page.ts). Built on the base the host vouches for; under a
// name it does not vouch for, 421 and nothing signed.
import type { Context, Hono } from "hono";
import type { Discovery } from "../discovery/discover.js";
import type { OAuthUrls } from "../oauth/urls.js";
import type { ServerBackend } from "./backend.js";
import { jsonResponse } from "./responses.js";
import { fleetNameOf, misdirected, PUBLIC_JSON } from "../oauth/http/routes.js";
import { motebitPage } from "./motebit-page.js";

export const SERVER_CARD_PATH = "/.well-known/mcp/server-card.json";
export const MCP_SERVER_CARD_PATH = "/mcp/server-card";
export const SERVER_CARD_MEDIA_TYPE = "application/mcp-server-card+json";
export const AGENT_CARD_PATH = "/.well-known/agent-card.json";
export const SERVER_JSON_PATH = "/server.json";
/** The signed documents, which any origin may read (app.ts). */
export const DISCOVERY_DOCUMENT_PATHS = [SERVER_CARD_PATH, MCP_SERVER_CARD_PATH, AGENT_CARD_PATH, SERVER_JSON_PATH];

export function mountDiscovery(app: Hono<any>, backendOf: (c: Context) => ServerBackend, urlsOf: (c: Context) => OAuthUrls | null): void {
  const answer = (respond: (d: Discovery, urls: OAuthUrls) => Response | Promise<Response>) => async (c: Context) => {
    const urls = urlsOf(c);
    if (urls === null) return misdirected();
    return respond(await backendOf(c).discovery(urls, fleetNameOf(urls)), urls);
  };
  // SEP-2127's current draft reserves <streamable-http-url>/server-card, in its own media type; the issue's
  // well-known path (earlier drafts, and what deployed crawlers fetch) answers the same card.
  const card = answer((d) => jsonResponse(200, d.documents.serverCard, PUBLIC_JSON));
  app.get(SERVER_CARD_PATH, card);
  app.get(MCP_SERVER_CARD_PATH, async (c) => {
    const res = await card(c);
    if (res.status === 200 && (c.req.header("Accept") ?? "").includes(SERVER_CARD_MEDIA_TYPE)) res.headers.set("Content-Type", SERVER_CARD_MEDIA_TYPE);
    return res;
  });
  app.get(AGENT_CARD_PATH, answer((d) => jsonResponse(200, d.documents.agentCard, PUBLIC_JSON)));
  app.get(SERVER_JSON_PATH, answer((d) => jsonResponse(200, d.documents.serverJson, PUBLIC_JSON)));
  app.get("/", answer((d, urls) => motebitPage(d.facts, urls)));
}
