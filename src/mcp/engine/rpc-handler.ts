// What the session engine runs each message through: Motebit.handleClassified, one classified JSON-RPC message for one principal.
import type { ClientChannel } from "../client-channel.js";
import type { JsonRpcResponse, PostedMessage } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { CallState } from "../call-state.js";
import type { Principal } from "../../principal.js";
import type { CallAdmitter } from "../context.js";

/** A response, or null for notifications. */
export type RpcHandler = (
  message: PostedMessage,
  ctx: { principal: Principal; signal: AbortSignal; channel: ClientChannel; session: SessionState; call?: CallState; admit?: CallAdmitter },
) => Promise<JsonRpcResponse | null>;
