// HTTP answers of the MCP endpoint. Transport-level refusals carry a JSON-RPC error body (id null), as MCP
// clients expect; auth refusals and startup failures carry the plain JSON bodies docs/protocol.md §5 fixes.
import { rpcError } from "../mcp/jsonrpc.js";

export function jsonResponse(status: number, body: unknown, headers?: HeadersInit): Response {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json");
  return new Response(JSON.stringify(body), { status, headers: h });
}

export function rpcErrorResponse(status: number, code: number, message: string, headers?: HeadersInit): Response {
  return jsonResponse(status, rpcError(null, code, message), headers);
}

/** HTTP 500 for a server that could not start; the message says what to fix. */
export function startupFailureResponse(message: string): Response {
  return jsonResponse(500, { error: message });
}

/** A 401 from authentication (docs/protocol.md §5 body), with the challenge header. */
export function authRefusalResponse(r: { status: number; body: unknown }): Response {
  return jsonResponse(r.status, r.body, { "WWW-Authenticate": 'Bearer realm="motebit"' });
}
