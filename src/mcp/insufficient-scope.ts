// A request the caller's OAuth grant does not reach, as it leaves the engine: a JSON-RPC error whose data names the
// scope to come back with. Nothing ran; the HTTP endpoint answers it 403 insufficient_scope (src/server/scope-challenge.ts).
import type { Admission } from "../policy/admission/admit.js";
import { scopeUnion } from "../policy/admission/oauth-scopes.js";
import type { Principal } from "../principal.js";
import { RpcError, TRANSPORT_ERROR, type JsonRpcResponse } from "./jsonrpc.js";

const DATA_KEY = "motebit/insufficient_scope";

export interface ScopeChallenge {
  /** What the client re-authorizes with: what it holds and what it lacked (MCP 2025-11-25 step-up). */
  scope: string;
  message: string;
}

export function insufficientScopeError(refusal: Extract<Admission, { outcome: "insufficient_scope" }>, principal: Principal): RpcError {
  const held = principal.kind === "peer" ? (principal.scope ?? "") : "";
  return new RpcError(TRANSPORT_ERROR, refusal.message, { [DATA_KEY]: scopeUnion(held, refusal.scope) });
}

/** The challenge a response carries, or null for any other response. */
export function scopeChallengeOf(response: JsonRpcResponse): ScopeChallenge | null {
  if (!("error" in response)) return null;
  const data = response.error.data as Record<string, unknown> | undefined;
  const scope = typeof data === "object" && data !== null ? data[DATA_KEY] : undefined;
  return typeof scope === "string" ? { scope, message: response.error.message } : null;
}
