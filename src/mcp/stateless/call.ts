// What every host does with a 2026-07-28 request before and after the core runs it: what a session would hold
// (capabilities, log level) comes from the request's own envelope, the rest is the request's (call-state.ts), and a
// method that revision removed is refused without running anything.
import { METHOD_NOT_FOUND, rpcError, type JsonRpcId, type JsonRpcResponse } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { CallState } from "../call-state.js";
import type { McpTaskStarter } from "./tasks-extension.js";
import { REMOVED_METHODS, type StatelessEnvelope } from "./revision.js";

/** The envelope's capabilities and log level, in the shape a session's request reads them. */
export function envelopeSession(envelope: StatelessEnvelope): SessionState {
  return { clientCapabilities: envelope.clientCapabilities, logLevel: envelope.logLevel, subscriptions: new Set() };
}

/** The request's own state: its revision, its Mcp-Param-* headers, and how to start it as a task when its client negotiated that. */
export function statelessCall(envelope: StatelessEnvelope, startTask: McpTaskStarter | undefined): CallState {
  return {
    statelessVersion: envelope.protocolVersion,
    ...(envelope.paramHeaders !== undefined && { paramHeaders: envelope.paramHeaders }),
    ...(startTask !== undefined && { startTask }),
  };
}

/** -32601 for a method the request's revision removed (initialize, ping, …); null for any other. */
export function removedMethodError(id: JsonRpcId, method: string, envelope: StatelessEnvelope): JsonRpcResponse | null {
  return REMOVED_METHODS.has(method) ? rpcError(id, METHOD_NOT_FOUND, `Method not found: ${method} (not part of protocol ${envelope.protocolVersion})`) : null;
}
