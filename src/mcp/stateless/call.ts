// What every host does with a 2026-07-28 request before and after the core runs it: the request is its own
// session, and a method that revision removed is refused without running anything.
import { METHOD_NOT_FOUND, rpcError, type JsonRpcId, type JsonRpcResponse } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import { REMOVED_METHODS, type StatelessEnvelope } from "./revision.js";

export function statelessSession(envelope: StatelessEnvelope): SessionState {
  return {
    clientCapabilities: envelope.clientCapabilities,
    logLevel: envelope.logLevel,
    subscriptions: new Set(),
    statelessVersion: envelope.protocolVersion,
    ...(envelope.paramHeaders !== undefined && { paramHeaders: envelope.paramHeaders }),
  };
}

/** -32601 for a method the request's revision removed (initialize, ping, …); null for any other. */
export function removedMethodError(id: JsonRpcId, method: string, envelope: StatelessEnvelope): JsonRpcResponse | null {
  return REMOVED_METHODS.has(method) ? rpcError(id, METHOD_NOT_FOUND, `Method not found: ${method} (not part of protocol ${envelope.protocolVersion})`) : null;
}
