// HTTP answers of the MCP endpoint. Transport-level refusals carry a JSON-RPC error body (id null), as MCP
// clients expect; auth refusals and startup failures carry plain JSON bodies (docs/protocol.md §5, docs/http-surface.md).
import { rpcError } from "../mcp/jsonrpc.js";

export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status, headers: h });
}

export function rpcErrorResponse(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return jsonResponse(status, rpcError(null, code, message), headers);
}

/** Where every startup failure is fixed: a setting is read when the server starts, never while it runs. */
export const STARTUP_FAILURE_HINT =
  "fix this setting and restart the server (npm start reads .dev.vars only when it starts; deployed: wrangler secret put, or [vars]); every setting: docs/configuration.md";

/**
 * HTTP 503 for a server whose settings cannot work: the service is unavailable until its operator fixes them, which
 * the message says how; a 500 would read as a bug in the server.
 */
export function startupFailureResponse(message: string): Response {
  return jsonResponse(503, { error: message, hint: STARTUP_FAILURE_HINT });
}

/** A 401 from authentication (docs/protocol.md §5 body), with the challenge header. */
export function authRefusalResponse(r: { status: number; body: unknown }): Response {
  return jsonResponse(r.status, r.body, { "WWW-Authenticate": 'Bearer realm="motebit"' });
}
