// JSON-RPC 2.0 shapes and the error codes MCP uses.

export type JsonRpcId = string | number;

export interface JsonRpcRequest {
  jsonrpc: "2.0";
  id: JsonRpcId;
  method: string;
  params?: Record<string, unknown>;
}

export interface JsonRpcNotification {
  jsonrpc: "2.0";
  method: string;
  params?: Record<string, unknown>;
}

export type JsonRpcResponse =
  | { jsonrpc: "2.0"; id: JsonRpcId; result: unknown }
  | { jsonrpc: "2.0"; id: JsonRpcId | null; error: { code: number; message: string; data?: unknown } };

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const METHOD_NOT_FOUND = -32601;
export const INVALID_PARAMS = -32602;
export const INTERNAL_ERROR = -32603;
/** MCP: resources/read of a URI the server does not have. */
export const RESOURCE_NOT_FOUND = -32002;
/** JSON-RPC's "server error" range: what MCP servers use for transport refusals and host limits. */
export const TRANSPORT_ERROR = -32000;

export class RpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
    /** Goes out as the error's `data` when set. */
    readonly data?: unknown,
  ) {
    super(message);
  }
}

export function rpcResult(id: JsonRpcId, result: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, result };
}

export function rpcError(id: JsonRpcId | null, code: number, message: string, data?: unknown): JsonRpcResponse {
  return { jsonrpc: "2.0", id, error: { code, message, ...(data !== undefined && { data }) } };
}

export type ClassifiedMessage =
  | { kind: "request"; message: JsonRpcRequest }
  | { kind: "notification"; message: JsonRpcNotification }
  | { kind: "response" }
  | { kind: "invalid"; id: JsonRpcId | null; reason: string };

function isId(v: unknown): v is JsonRpcId {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/** What a server acts on: a classified request or notification (a host routes client responses itself). */
export type RpcMessage = Extract<ClassifiedMessage, { kind: "request" | "notification" }>;

/** A body classified once by its host: what the server acts on, or a client's response to one of our requests. */
export type PostedMessage = RpcMessage | { kind: "response"; message: unknown };

/** Sorts one decoded JSON value into request / notification / client response / invalid. */
export function classifyMessage(v: unknown): ClassifiedMessage {
  if (typeof v !== "object" || v === null || Array.isArray(v)) {
    return { kind: "invalid", id: null, reason: "a JSON-RPC message must be an object" };
  }
  const m = v as Record<string, unknown>;
  const id = isId(m.id) ? m.id : null;
  if (m.jsonrpc !== "2.0") return { kind: "invalid", id, reason: 'jsonrpc must be "2.0"' };
  if (m.method === undefined && ("result" in m || "error" in m)) return { kind: "response" };
  if (typeof m.method !== "string" || m.method === "") return { kind: "invalid", id, reason: "method must be a non-empty string" };
  if (m.params !== undefined && (typeof m.params !== "object" || m.params === null || Array.isArray(m.params))) {
    return { kind: "invalid", id, reason: "params must be an object" };
  }
  if (!("id" in m)) return { kind: "notification", message: m as unknown as JsonRpcNotification };
  if (!isId(m.id)) return { kind: "invalid", id: null, reason: "id must be a string or a number" };
  return { kind: "request", message: m as unknown as JsonRpcRequest };
}
