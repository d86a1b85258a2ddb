// The one way a decoded message is judged before the engine runs it, for every transport: JSON-RPC's shape (one
// message, never a batch), then which revision it speaks and whether the transport's headers agree with it.
// A refusal carries the status HTTP answers with; stdio writes its response as a line (never for a notification).
import { classifyMessage, INVALID_REQUEST, rpcError, type JsonRpcResponse } from "../jsonrpc.js";
import { classifyRevision, type StatelessEnvelope } from "../stateless/revision.js";

/** HTTP's MCP-Protocol-Version, Mcp-Method and Mcp-Name headers; null over stdio, which has none to agree with. */
export type RevisionHeaders = Parameters<typeof classifyRevision>[2];

export type Classified =
  | { ok: true; kind: "request" | "notification" | "response"; message: unknown; envelope: StatelessEnvelope | null }
  | { ok: false; status: number; response: JsonRpcResponse; notification: boolean };

export function classifyIncoming(raw: unknown, headers: RevisionHeaders): Classified {
  if (Array.isArray(raw)) return refuse(400, rpcError(null, INVALID_REQUEST, "Invalid Request: JSON-RPC batches are not supported"), false);
  const c = classifyMessage(raw);
  if (c.kind === "invalid") return refuse(400, rpcError(c.id, INVALID_REQUEST, `Invalid Request: ${c.reason}`), false);
  const revision = classifyRevision(c.kind, raw as never, headers);
  if ("refused" in revision) {
    const r = revision.refused;
    return refuse(r.status, rpcError(r.id, r.code, r.message, r.data), c.kind === "notification");
  }
  return { ok: true, kind: c.kind, message: raw, envelope: revision.stateless ? revision.envelope : null };
}

function refuse(status: number, response: JsonRpcResponse, notification: boolean): Classified {
  return { ok: false, status, response, notification };
}
