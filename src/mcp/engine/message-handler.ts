// What the session engine runs each message through: the motebit (Motebit.handleClassified, src/motebit.ts), one
// classified JSON-RPC message for one principal. The host hands the engine the motebit itself, so a reader of the
// engine follows the call by its method's name.
import type { ClientChannel } from "../client-channel.js";
import type { JsonRpcResponse, PostedMessage } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { CallState } from "../call-state.js";
import type { Principal } from "../../principal.js";
import type { CallAdmitter } from "../call-context.js";
import type { RequestTransport } from "../../telemetry/request-transport.js";
import type { TelemetryPort } from "../../telemetry/port.js";

/** Who asks, how the call is stopped, the way back to its client and its session; what its transport knows of it (its span reads that). */
export type MessageContext = {
  principal: Principal;
  signal: AbortSignal;
  channel: ClientChannel;
  session: SessionState;
  call?: CallState;
  admit?: CallAdmitter;
  transport?: RequestTransport;
};

export interface MessageHandler {
  /** The operator's OpenTelemetry (the motebit's), which the engine's tasks and the HTTP endpoint count into. */
  readonly telemetry?: TelemetryPort | null;
  /** A response, or null for notifications. */
  handleClassified(message: PostedMessage, ctx: MessageContext): Promise<JsonRpcResponse | null>;
}
