// The one MCP session engine under every transport (stdio, HTTP on both hosts): which session a message belongs
// to, where a client's answer goes, what a cancellation may reach, the 2025-11-25 (session) and 2026-07-28
// (stateless) envelopes, the tasks extension, and server-to-client requests. A transport only frames messages and
// says which conduit each arrived on; how an answer travels (JSON, SSE, a line on stdout) is the transport's.
import type { ClientChannel } from "../client-channel.js";
import { InFlight } from "./in-flight.js";
import { RpcError, rpcError, rpcResult, type JsonRpcId, type JsonRpcResponse, type PostedMessage } from "../jsonrpc.js";
import { clientMessageProblem } from "../param-schemas.js";
import { PendingReplies, replyKey } from "./pending-replies.js";
import { newSessionState, type SessionState } from "../session.js";
import type { CallState } from "../call-state.js";
import { envelopeSession, removedMethodError, statelessCall } from "../stateless/call.js";
import { shapeStatelessResponse } from "../stateless/result.js";
import { MISSING_CLIENT_CAPABILITY, type StatelessEnvelope } from "../stateless/revision.js";
import { declaresMcpTasks, MCP_TASK_METHODS, TASKS_EXTENSION } from "../stateless/tasks-extension.js";
import type { Principal } from "../../principal.js";
import { callerKey } from "./limits.js";
import type { MessageHandler } from "./message-handler.js";
import type { KeptCall, McpTaskHost } from "./mcp-task-host.js";
import type { RequestTransport } from "../../telemetry/request-transport.js";

/** Session states kept in memory (log level, client capabilities, subscriptions); past this many the oldest goes. */
const MAX_SESSION_STATES = 4096;

/** Where one message arrived, and the way back to its client. */
export interface Conduit {
  /**
   * Answers and cancellations are matched only within this scope: the stdio connection, an HTTP session, or one
   * HTTP POST (a 2026-07-28 request over HTTP has no session, so only its own connection can cancel it).
   */
  readonly scope: string;
  /** The session that 2025-11-25 messages on this conduit belong to (null where only 2026-07-28 arrives). */
  readonly session: SessionState | null;
  /** Sends a message ahead of the answer; false when it cannot reach the client (any more). */
  send(message: object): boolean;
  /** Null when a server-to-client request sent here can be answered; else why not (said to the tool that asked). */
  readonly cannotAsk: string | null;
  /** Aborts when the connection (stdio) or the host stops: the requests running on it end, and their waits are freed. */
  readonly closed?: AbortSignal;
}

/** One decoded, classified message and who sent it. */
export interface Incoming {
  principal: Principal;
  kind: "request" | "notification" | "response";
  message: unknown;
  /** Set for a 2026-07-28 message: its own session, from its `_meta`. */
  envelope: StatelessEnvelope | null;
  /** What its transport knows of it (HTTP's trace headers, session id, protocol version), for its span. */
  transport?: RequestTransport;
}

/** What the engine made of one message (receive). */
export type Received = { type: "answer"; response: JsonRpcResponse | null } | { type: "malformed"; error: JsonRpcResponse };

type Message = { id?: JsonRpcId; method?: string; params?: Record<string, unknown>; result?: unknown; error?: { message?: unknown } };

export class SessionEngine {
  private readonly inFlight = new InFlight();
  private readonly replies = new PendingReplies();
  private readonly states = new Map<string, SessionState>();

  constructor(
    private readonly motebit: MessageHandler,
    private readonly tasks: McpTaskHost,
  ) {}

  /** A graceful shutdown: the running tasks are left for the next start (McpTaskHost.handOver). */
  handOver(graceMs: number): Promise<void> {
    return this.tasks.handOver(graceMs);
  }

  /**
   * One classified message (classify.ts), judged and run: the answer to send (a request's response, null for
   * anything else), or, for a notification or client answer whose fields have the wrong types, the -32602 error to
   * report (HTTP answers it with 400, stdio logs it). Rejects only on an internal failure.
   */
  async receive(m: Incoming, conduit: Conduit): Promise<Received> {
    // Requests are type-checked by dispatch, so only notifications and answers are judged here.
    if (m.kind !== "request") {
      const bad = await this.malformed(m, conduit);
      if (bad !== null) return { type: "malformed", error: bad };
    }
    return { type: "answer", response: await this.route(m, conduit) };
  }

  private async route(m: Incoming, conduit: Conduit): Promise<JsonRpcResponse | null> {
    const message = m.message as Message;
    if (m.kind === "response") {
      this.replies.settle(replyKey(conduit.scope, message.id), message);
      return null;
    }
    if (m.kind === "notification") {
      if (message.method === "notifications/cancelled") {
        const reason = message.params?.reason;
        this.cancel(conduit.scope, message.params?.requestId, typeof reason === "string" ? reason : "cancelled by the client");
      }
      return null;
    }
    if (m.envelope === null) return this.run(m, conduit, conduit.session ?? newSessionState(), this.channel(m.principal, conduit));
    return this.stateless(m, m.envelope, conduit);
  }

  /**
   * A notification or client answer whose fields have the wrong types: its -32602 error, after the motebit has
   * audited it; an answer we can still route ends its waiting call now instead of at the reply timeout. Null when
   * the message is well-typed.
   */
  private async malformed(m: Incoming, conduit: Conduit): Promise<JsonRpcResponse | null> {
    const bad = clientMessageProblem(m.message);
    if (bad === null) return null;
    if (m.kind === "response" && bad.id !== null) {
      this.replies.settle(replyKey(conduit.scope, bad.id), { error: { message: `the client's answer was malformed: ${bad.error.message}` } });
    }
    const session = conduit.session ?? newSessionState();
    await this.motebit.handleClassified(posted(m), { principal: m.principal, signal: new AbortController().signal, channel: this.channel(m.principal, conduit), session, transport: m.transport });
    return rpcError(null, bad.error.code, bad.error.message);
  }

  /** The state of a session (an HTTP session id, the stdio connection); made fresh when this host has none for it. */
  session(scope: string): SessionState {
    let s = this.states.get(scope);
    if (!s) this.remember(scope, (s = newSessionState()));
    return s;
  }

  /** Keeps `state` as the session `scope` (after initialize opened it). */
  remember(scope: string, state: SessionState): void {
    if (this.states.size >= MAX_SESSION_STATES) this.states.delete(this.states.keys().next().value!);
    this.states.set(scope, state);
  }

  forget(scope: string): void {
    this.states.delete(scope);
  }

  /**
   * Aborts the request `requestId` running in `scope` (a client's notifications/cancelled, or its connection gone):
   * its signal fires, and what it waits for from the client is freed. Nothing when no such request runs.
   */
  cancel(scope: string, requestId: unknown, reason: string): void {
    this.inFlight.cancel(replyKey(scope, requestId), reason);
  }

  /** How many server-to-client requests `principal` has waiting. */
  waitsHeldBy(principal: Principal): number {
    return this.replies.heldBy(callerKey(principal));
  }

  /** A 2026-07-28 request: its envelope in place of a session, its state in the call (call-state.ts); no server-to-client requests (input-required results replace them). */
  private async stateless(m: Incoming, envelope: StatelessEnvelope, conduit: Conduit): Promise<JsonRpcResponse | null> {
    const { id, method, params } = m.message as Required<Pick<Message, "id" | "method">> & Message;
    const shape = (r: JsonRpcResponse) => shapeStatelessResponse(method, params, r);
    // Ill-typed task params take the general path, where the motebit refuses (-32602) and audits them.
    if (MCP_TASK_METHODS.has(method) && clientMessageProblem(m.message) === null) return shape(this.taskMethod(m.principal, id, method, params, envelope));
    const removed = removedMethodError(id, method, envelope);
    if (removed !== null) return removed;
    // A task keeps the envelope for its runs; the headers were checked at this call and are not kept.
    const { paramHeaders: _checked, ...kept } = envelope;
    const call = statelessCall(envelope, declaresMcpTasks(envelope.clientCapabilities) ? (tool, args, trace) => this.tasks.create(m.principal, trace === undefined ? kept : { ...kept, trace }, tool, args) : undefined);
    const channel: ClientChannel = {
      notify: (name, p) => void conduit.send({ jsonrpc: "2.0", method: name, params: p }),
      request: async (name) => {
        throw new Error(`protocol ${envelope.protocolVersion} has no server-to-client requests (${name})`);
      },
    };
    const response = await this.run(m, conduit, envelopeSession(envelope), channel, call);
    return response === null ? null : shape(response);
  }

  /** tasks/get, tasks/update, tasks/cancel: only for a client that negotiated the tasks extension. */
  private taskMethod(asker: Principal, id: JsonRpcId, method: string, params: Record<string, unknown> | undefined, envelope: StatelessEnvelope): JsonRpcResponse {
    if (!declaresMcpTasks(envelope.clientCapabilities)) {
      return rpcError(id, MISSING_CLIENT_CAPABILITY, `Missing required client capability: ${method} needs the ${TASKS_EXTENSION} extension`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
    try {
      return rpcResult(id, this.tasks.handle(method, params, asker));
    } catch (e) {
      if (!(e instanceof RpcError)) throw e;
      return rpcError(id, e.code, e.message, e.data);
    }
  }

  /** Runs a request where a cancellation from its own scope, or its connection dropping, can abort it. */
  private async run(m: Incoming, conduit: Conduit, session: SessionState, channel: ClientChannel, call?: CallState): Promise<JsonRpcResponse | null> {
    const key = replyKey(conduit.scope, (m.message as Message).id);
    const controller = this.inFlight.begin(key, conduit.closed);
    // A synchronous motebit_task is kept from its admission, so a host stopped during it still signs its receipt.
    let kept: KeptCall | undefined;
    const admit = (tool: string, args: unknown) => (kept = this.tasks.keepCall(m.principal, tool, args)).admit;
    try {
      return await this.motebit.handleClassified(posted(m), { principal: m.principal, signal: controller.signal, channel, session, call, admit, transport: m.transport });
    } finally {
      kept?.end();
      this.inFlight.end(key, controller);
    }
  }


  /** The way back during a 2025-11-25 request: notifications, and requests whose answers are routed by scope + id. */
  private channel(principal: Principal, conduit: Conduit): ClientChannel {
    return {
      notify: (method, params) => void conduit.send({ jsonrpc: "2.0", method, params }),
      request: (method, params, signal) => {
        if (conduit.cannotAsk !== null) return Promise.reject(new Error(conduit.cannotAsk));
        const id = this.replies.newId();
        const key = replyKey(conduit.scope, id);
        const answer = this.replies.wait(key, callerKey(principal), signal);
        // Refused (this caller or the host at its limit): nothing goes out.
        if (!this.replies.isWaiting(key)) return answer;
        if (!conduit.send({ jsonrpc: "2.0", id, method, params })) this.replies.settle(key, { error: { message: "the client's connection is closed" } });
        return answer;
      },
    };
  }
}

/** The classified message a handler takes (the transport has classified it already). */
function posted(m: Incoming): PostedMessage {
  return { kind: m.kind, message: m.message } as PostedMessage;
}
