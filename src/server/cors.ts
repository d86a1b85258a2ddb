// CORS for the origins app.ts's Origin check let through (a foreign one was already refused with 403). A preflight
// on any path needs no auth and allows every request header an MCP client sends: under 2026-07-28 that is also
// Mcp-Method, Mcp-Name and the Mcp-Param-{Name} headers the served tools declare, without which no browser can send
// a valid request of that revision. A response names the origin and exposes the headers a client reads.
import type { MiddlewareHandler } from "hono";
import { METHOD_HEADER, NAME_HEADER, PROTOCOL_VERSION_HEADER, SESSION_HEADER } from "./mcp-request.js";
import { declaredParamHeaders } from "../mcp/stateless/param-headers.js";
import type { ToolRegistry } from "../tools/registry.js";

const ALLOW_METHODS = "GET,POST,DELETE,OPTIONS";
const MCP_HEADERS = ["Authorization", "Content-Type", "Accept", SESSION_HEADER, PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER, "Last-Event-ID", "DPoP"];
/** The session id (2025 revisions), a 429's wait, a 401's challenge (OAuth discovery) and DPoP's server nonce. */
const EXPOSE_HEADERS = [SESSION_HEADER, "Retry-After", "WWW-Authenticate", "DPoP-Nonce"].join(",");
const MAX_AGE = "86400";

/** The served tools a preflight reads its Mcp-Param-* headers from: every HTTP caller is a peer. */
export type CorsTools = Pick<ToolRegistry, "list" | "generation">;

/** The Allow-Headers value, rebuilt only when the registry changes (an owner server's tools come and go). */
const allowed = new WeakMap<CorsTools, { generation: number; value: string }>();
function allowHeaders(tools: CorsTools | undefined): string {
  if (tools === undefined) return MCP_HEADERS.join(",");
  let a = allowed.get(tools);
  if (a === undefined || a.generation !== tools.generation) {
    const params = declaredParamHeaders(tools.list("peer").map((t) => t.definition.inputSchema));
    a = { generation: tools.generation, value: [...MCP_HEADERS, ...params].join(",") };
    allowed.set(tools, a);
  }
  return a.value;
}

/**
 * A preflight is answered here whoever sends it; any other request gets CORS headers only when it carries an Origin
 * (no Origin is no browser: nothing would read them).
 */
export function corsFor(tools?: CorsTools): MiddlewareHandler {
  return async (c, next) => {
    const origin = c.req.header("Origin");
    if (c.req.method === "OPTIONS") {
      const headers = new Headers({
        "Access-Control-Allow-Methods": ALLOW_METHODS,
        "Access-Control-Allow-Headers": allowHeaders(tools),
        "Access-Control-Expose-Headers": EXPOSE_HEADERS,
        "Access-Control-Max-Age": MAX_AGE,
        Vary: "Origin",
      });
      if (origin) headers.set("Access-Control-Allow-Origin", origin);
      return new Response(null, { status: 204, headers });
    }
    if (!origin) return next();
    // Set on the context's response before the handler's replaces it: Hono carries them over (a Durable Object's
    // response has immutable headers, so they cannot be added to it afterwards).
    c.res.headers.set("Access-Control-Allow-Origin", origin);
    c.res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    await next();
    c.header("Vary", "Origin", { append: true });
  };
}
