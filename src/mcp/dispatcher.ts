import type { CallContext, MotebitContext } from "./context.js";
import type { JsonRpcResponse } from "./jsonrpc.js";
import { classifyMessage, INTERNAL_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, rpcError, rpcResult, RpcError } from "./jsonrpc.js";
import { negotiateProtocolVersion } from "./protocol-versions.js";
import { toolsListFor } from "./catalog.js";
import { callTool } from "./call-tool.js";
import { listResources, readResource } from "./resources.js";
import { getPrompt, listPrompts } from "./prompts.js";
import { echo } from "../protocol/echo.js";

export const SERVER_INFO = { name: "motebit", version: "0.1.0" };

type Handler = (m: MotebitContext, c: CallContext, params: Record<string, unknown>) => Promise<unknown>;

const METHODS: Record<string, Handler> = {
  async initialize(m, c, params) {
    return {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      // Only the owner's tools change while serving (connected MCP servers come and go); a peer's never do.
      capabilities: { tools: { listChanged: c.principal.kind === "owner" }, resources: { listChanged: false }, prompts: { listChanged: false } },
      serverInfo: SERVER_INFO,
      instructions:
        `This is motebit ${m.motebitId} (${m.did}). Results end with an identity tag; motebit_task returns ` +
        `ExecutionReceipts signed with its Ed25519 key. Call motebit_tools to see what you may use.`,
    };
  },
  async ping() {
    return {};
  },
  async "tools/list"(m, c) {
    return { tools: toolsListFor(m, c.principal) };
  },
  async "tools/call"(m, c, params) {
    return callTool(m, c, params.name, params.arguments);
  },
  async "resources/list"(m, c) {
    return { resources: listResources(m, c.principal) };
  },
  async "resources/templates/list"() {
    return { resourceTemplates: [] };
  },
  async "resources/read"(m, c, params) {
    return readResource(m, c.principal, params.uri);
  },
  async "prompts/list"() {
    return { prompts: listPrompts() };
  },
  async "prompts/get"(_m, _c, params) {
    return getPrompt(params.name, params.arguments);
  },
};

/**
 * One decoded JSON-RPC message in, at most one response out (null for notifications and client responses).
 * Transport concerns — framing, sessions, auth — belong to the host.
 */
export async function dispatch(m: MotebitContext, c: CallContext, message: unknown): Promise<JsonRpcResponse | null> {
  const msg = classifyMessage(message);
  if (msg.kind === "response" || msg.kind === "notification") return null;
  if (msg.kind === "invalid") return rpcError(msg.id, INVALID_REQUEST, `Invalid request: ${msg.reason}`);
  const { id, method, params } = msg.message;
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) return rpcError(id, METHOD_NOT_FOUND, `Method not found: ${echo(method)}`);
  try {
    return rpcResult(id, await handler(m, c, params ?? {}));
  } catch (e) {
    if (e instanceof RpcError) return rpcError(id, e.code, e.message);
    m.log(`internal error in ${echo(method)}: ${(e as Error)?.stack ?? String(e)}`);
    return rpcError(id, INTERNAL_ERROR, "Internal error");
  }
}
