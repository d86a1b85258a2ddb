// What one call carries: who asks, the signal that ends it, the way back to the client, its session and per-call
// state, and the caller's view (CallerView). Built by the dispatcher from what the host hands in.
import type { AdmitCall } from "../agent/task.js";
import type { CallableTool } from "../agent/turn-context.js";
import type { Principal } from "../principal.js";
import type { ClientChannel } from "./client-channel.js";
import type { SessionState } from "./session.js";
import type { CallState } from "./call-state.js";
import type { TraceScope } from "../telemetry/trace-scope.js";

/** What a host hands in with one message: who is asking, the signal that ends the call, the way back and its session. */
export interface CallInput {
  principal: Principal;
  signal: AbortSignal;
  channel: ClientChannel;
  session: SessionState;
  /** What this request (or the MCP task it runs for) holds beside the session. */
  call: CallState;
  /** A synchronous call on a host that keeps its calls: how the tool `tool` called with `args` is kept once admitted. */
  admit?: CallAdmitter;
  /** The request's span, when the host gave a TelemetryPort: the parent of every span the call makes. */
  trace?: TraceScope;
}

export type CallAdmitter = (tool: string, args: unknown) => AdmitCall;

/**
 * The asking principal as this call sees it, computed once per message (the dispatcher builds it:
 * CallerViewWithCatalog, caller-view.ts): its standing (read from the host's settings at most once), what it may call, its memory scope.
 */
export interface CallerView {
  readonly viewer: Principal["kind"];
  /** As it stands now: its trust re-read, when it still stands; else as delivered. */
  readonly principal: Principal;
  /** Why nothing may run in this call (standing lost, the task's attempt cap), or null. */
  readonly stop: string | null;
  /** A fresh read, for the tool steps of a long run after it began: trust may change while it runs. */
  stopNow(): string | null;
  readonly memoryScope: string;
  /** What this caller may call now (motebit_tools, the service listing). */
  callable(): CallableTool[];
}

/** Per-call inputs with the call's view. */
export interface CallContext extends CallInput {
  readonly view: CallerView;
  /** The request's _meta.progressToken: progress goes to the client only when it asked with one. */
  progressToken?: string | number;
}

/** The call with its children's span as their parent (the call itself when there is no trace). */
export function withTrace<C extends CallInput>(c: C, trace: TraceScope | undefined): C {
  return trace === undefined ? c : { ...c, trace };
}
