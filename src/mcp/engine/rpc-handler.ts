// What the session engine runs each message through: Motebit.handleRpc, one JSON-RPC message for one principal.
import type { ClientChannel } from "../client-channel.js";
import type { JsonRpcResponse } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { Principal } from "../../principal.js";

/** A response, or null for notifications. */
export type RpcHandler = (
  message: unknown,
  ctx: { principal: Principal; signal: AbortSignal; channel: ClientChannel; session: SessionState },
) => Promise<JsonRpcResponse | null>;
