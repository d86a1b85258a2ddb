// The stateful half of the Streamable HTTP endpoint, run where requests are serialised (the Durable Object at
// the edge, the process in Node): consume the jti, rate-limit the caller, check the session, run the message.
import type { ClientChannel } from "../mcp/client-channel.js";
import { InFlight } from "../mcp/in-flight.js";
import { rpcError, RpcError, rpcResult, type JsonRpcId, type JsonRpcResponse, type PostedMessage, type RpcMessage } from "../mcp/jsonrpc.js";
import { declaresTasks, TASKS_EXTENSION } from "../mcp/tasks-extension.js";
import { McpTasks, TASK_METHODS } from "./mcp-tasks.js";
import { TaskStore } from "./task-store.js";
import { shapeStatelessResponse, statelessHttpStatus } from "../mcp/stateless-result.js";
import { MISSING_CLIENT_CAPABILITY, type StatelessEnvelope } from "../mcp/stateless-revision.js";
import { removedMethodError, statelessSession } from "../mcp/stateless-call.js";
import { PendingReplies, replyKey } from "../mcp/pending-replies.js";
import { clientMessageProblem } from "../mcp/param-schemas.js";
import { newSessionState, type SessionState } from "../mcp/session.js";
import type { Clock, SqlPort } from "../ports.js";
import type { Principal } from "../principal.js";
import { tokenRefusal } from "./auth.js";
import type { ServerConfig } from "./config.js";
import { SESSION_HEADER, type McpCall, type ResponseMode } from "./mcp-request.js";
import { RateLimiter } from "./rate-limit.js";
import { ReplayStore } from "./replay-store.js";
import { PostStream } from "./post-stream.js";
import { jsonResponse, rpcErrorResponse, TRANSPORT_ERROR } from "./responses.js";
import { SessionStore } from "./session-store.js";

/** One classified JSON-RPC message for one principal (Motebit.handleClassified): a response, or null for notifications. */
export type RpcHandler = (
  message: PostedMessage,
  ctx: { principal: Principal; signal: AbortSignal; channel: ClientChannel; session: SessionState },
) => Promise<JsonRpcResponse | null>;

/** Session state kept in memory (log level, client capabilities, subscriptions); past this many the oldest is dropped. */
const MAX_SESSION_STATES = 4096;

/** MCP's code for an unknown session. */
const SESSION_NOT_FOUND = -32001;

export interface McpEndpointOptions {
  sql: SqlPort;
  clock: Clock;
  config: Pick<ServerConfig, "rateLimitPerMinute" | "sessionTtlMs" | "maxSessionsPerCaller">;
  rpc: RpcHandler;
}

export class McpEndpoint {
  private readonly replay: ReplayStore;
  private readonly sessions: SessionStore;
  private readonly limiter: RateLimiter;
  private readonly rpc: RpcHandler;
  private readonly sql: SqlPort;
  // In memory, in the one place requests are serialised (the Durable Object, the Node process): a cancellation
  // or a client's answer arrives as its own POST and must find the call it belongs to.
  private readonly inFlight = new InFlight();
  private readonly replies = new PendingReplies();
  private readonly states = new Map<string, SessionState>();
  private readonly tasks: McpTasks;

  /** Creates its tables if missing. */
  constructor(o: McpEndpointOptions) {
    this.replay = new ReplayStore(o.sql, o.clock);
    this.sessions = new SessionStore(o.sql, o.clock, { ttlMs: o.config.sessionTtlMs, maxPerCaller: o.config.maxSessionsPerCaller });
    this.limiter = new RateLimiter(o.sql, o.clock, o.config.rateLimitPerMinute);
    this.rpc = o.rpc;
    this.sql = o.sql;
    this.replay.migrate();
    this.sessions.migrate();
    this.limiter.migrate();
    const taskStore = new TaskStore(o.sql, o.clock);
    taskStore.migrate();
    this.tasks = new McpTasks(taskStore, this.rpc);
    this.tasks.resume();
  }

  async handle(call: McpCall): Promise<Response> {
    // Admission (jti, rate bucket, session touch or close) commits as one transaction: one fsync in durable
    // mode, and never half of it. The message's own writes come after, when its (async) work is done.
    const refusal = this.sql.transaction(() => this.admit(call));
    if (refusal !== null) return refusal;
    if (call.method === "DELETE") {
      this.states.delete(call.sessionId!);
      return new Response(null, { status: 204 });
    }

    if (call.stateless) return this.handleStateless(call, call.stateless);

    const { principal } = call;
    const initialize = isInitialize(call);
    const session = initialize ? newSessionState() : this.stateOf(call.sessionId!);
    const scope = initialize ? "" : call.sessionId!;
    const message = call.message as { id?: JsonRpcId; method?: string; params?: { requestId?: JsonRpcId; reason?: unknown } };

    if (call.kind !== "request") {
      const refused = await this.refuseMalformed(call, scope, { principal, signal: new AbortController().signal, channel: this.channel(scope, null), session });
      if (refused !== null) return refused;
    }
    if (call.kind === "response") {
      // A client's answer to one of our requests: to the call waiting in this session, if any.
      this.replies.settle(replyKey(scope, message.id), message as { result?: unknown; error?: { message?: unknown } });
      return new Response(null, { status: 202 });
    }
    if (call.kind === "notification") {
      if (message.method === "notifications/cancelled") {
        this.inFlight.cancel(replyKey(scope, message.params?.requestId), String(message.params?.reason ?? "cancelled by the client"));
      }
      await this.rpc(call, { principal, signal: new AbortController().signal, channel: this.channel(scope, null), session });
      return new Response(null, { status: 202 });
    }

    const key = replyKey(scope, message.id);
    const controller = this.inFlight.begin(key);
    const stream = new PostStream(call.sse === true);
    const done = this.rpc(call, { principal, signal: controller.signal, channel: this.channel(scope, stream), session });
    const ended = done.finally(() => this.inFlight.end(key, controller));
    await Promise.race([ended, stream.opened]).catch(() => {});
    if (stream.started) {
      ended.then(
        (response) => stream.finish(response),
        () => stream.finish({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "Internal error" } }),
      );
      return new Response(stream.body, { status: 200, headers: sseHeaders(new Headers()) });
    }
    const response = await ended;
    if (response === null) return new Response(null, { status: 202 });

    const headers = new Headers();
    if (initialize && "result" in response) {
      const id = this.sessions.open(principal.callerId);
      this.remember(id, session);
      headers.set(SESSION_HEADER, id);
    }
    return formatResponse(response, call.mode, headers);
  }

  /** A 2026-07-28 request: its own session, built from its `_meta`; nothing is remembered after it. */
  private async handleStateless(call: Extract<McpCall, { method: "POST" }>, envelope: StatelessEnvelope): Promise<Response> {
    const { principal } = call;
    const message = call.message as { id?: JsonRpcId; method: string; params?: Record<string, unknown> & { requestId?: JsonRpcId; reason?: unknown } };
    // Cancellations still arrive as notifications; the scope keeps one caller from cancelling another's requests.
    const scope = `stateless\u0000${principal.callerId}`;
    const session = statelessSession(envelope);
    if (call.kind !== "request") {
      const refused = await this.refuseMalformed(call, scope, { principal, signal: new AbortController().signal, channel: this.channel(scope, null), session });
      if (refused !== null) return refused;
      if (message.method === "notifications/cancelled") {
        this.inFlight.cancel(replyKey(scope, message.params?.requestId), String(message.params?.reason ?? "cancelled by the client"));
      }
      return new Response(null, { status: 202 });
    }
    const tasksNegotiated = declaresTasks(envelope.clientCapabilities);
    // Ill-typed task params take the general path, where the motebit refuses (-32602) and audits them.
    if (TASK_METHODS.has(message.method) && clientMessageProblem(call.message) === null) return this.taskMethod(message, envelope, principal.callerId, tasksNegotiated);
    if (tasksNegotiated) session.startTask = (tool, args) => this.tasks.create(principal, envelope, tool, args);
    const removed = removedMethodError(message.id!, message.method, envelope);
    if (removed !== null) return jsonResponse(404, removed);
    const shape = (r: JsonRpcResponse) => shapeStatelessResponse(message.method, message.params, r);
    const key = replyKey(scope, message.id);
    const controller = this.inFlight.begin(key);
    const stream = new PostStream(call.sse === true);
    // No server-to-client requests in this revision (input-required results replace them): notifications only.
    const channel: ClientChannel = {
      notify: (method, params) => void stream.send({ jsonrpc: "2.0", method, params }),
      request: async (method) => {
        throw new Error(`protocol ${envelope.protocolVersion} has no server-to-client requests (${method})`);
      },
    };
    const done = this.rpc(call, { principal, signal: controller.signal, channel, session });
    const ended = done.finally(() => this.inFlight.end(key, controller));
    await Promise.race([ended, stream.opened]).catch(() => {});
    if (stream.started) {
      ended.then(
        (response) => stream.finish(response === null ? null : shape(response)),
        () => stream.finish({ jsonrpc: "2.0", id: message.id, error: { code: -32603, message: "Internal error" } }),
      );
      return new Response(stream.body, { status: 200, headers: sseHeaders(new Headers()) });
    }
    const response = await ended;
    if (response === null) return new Response(null, { status: 202 });
    const shaped = shape(response);
    return formatResponse(shaped, call.mode, new Headers(), statelessHttpStatus(shaped));
  }

  /**
   * A notification or client answer whose fields have the wrong types: 400 with the -32602 error (Streamable HTTP
   * answers input it cannot accept with an error status), audited by the motebit; an answer we can still route
   * ends its waiting call now instead of at the reply timeout.
   */
  private async refuseMalformed(call: Extract<McpCall, { method: "POST" }>, scope: string, ctx: Parameters<RpcHandler>[1]): Promise<Response | null> {
    const bad = clientMessageProblem(call.message);
    if (bad === null) return null;
    if (call.kind === "response" && bad.id !== null) this.replies.settle(replyKey(scope, bad.id), { error: { message: `the client's answer was malformed: ${bad.error.message}` } });
    await this.rpc({ kind: call.kind, message: call.message } as PostedMessage, ctx);
    return jsonResponse(400, rpcError(null, bad.error.code, bad.error.message));
  }

  /** tasks/get, tasks/update, tasks/cancel: only for a client that negotiated the tasks extension. */
  private taskMethod(message: { id?: JsonRpcId; method: string; params?: Record<string, unknown> }, envelope: StatelessEnvelope, callerId: string, negotiated: boolean): Response {
    const id = message.id!;
    if (!negotiated) {
      const error = rpcError(id, MISSING_CLIENT_CAPABILITY, `Missing required client capability: ${message.method} needs the ${TASKS_EXTENSION} extension`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
      return jsonResponse(400, error);
    }
    let response: JsonRpcResponse;
    try {
      response = rpcResult(id, this.tasks.handle(message.method, message.params, callerId));
    } catch (e) {
      if (!(e instanceof RpcError)) throw e;
      response = rpcError(id, e.code, e.message, e.data);
    }
    return jsonResponse(200, shapeStatelessResponse(message.method, message.params, response));
  }

  /** The refusal to send, or null when the call may run (a DELETE has then closed its session). */
  private admit(call: McpCall): Response | null {
    const { principal } = call;
    if (call.jti !== null && !this.replay.consume(call.jti.jti, call.jti.keepUntil)) {
      const r = tokenRefusal("jti_replayed");
      return jsonResponse(r.status, r.body);
    }
    const rate = this.limiter.take(principal.callerId);
    if (!rate.ok) {
      return rpcErrorResponse(429, TRANSPORT_ERROR, `Too Many Requests: retry after ${rate.retryAfterSeconds} s`, {
        "Retry-After": String(rate.retryAfterSeconds),
      });
    }
    if (call.method === "DELETE") {
      if (call.sessionId === null) return missingSession();
      return this.sessions.close(call.sessionId, principal.callerId) ? null : sessionNotFound();
    }
    // initialize opens a session; a 2026-07-28 request needs none.
    if (isInitialize(call) || call.stateless !== undefined) return null;
    if (call.sessionId === null) return missingSession();
    return this.sessions.use(call.sessionId, principal.callerId) ? null : sessionNotFound();
  }
  private stateOf(sessionId: string): SessionState {
    let s = this.states.get(sessionId);
    if (!s) this.remember(sessionId, (s = newSessionState()));
    return s;
  }

  private remember(sessionId: string, s: SessionState): void {
    if (this.states.size >= MAX_SESSION_STATES) this.states.delete(this.states.keys().next().value!);
    this.states.set(sessionId, s);
  }

  /** The way back to the client for one POST: its stream, and answers routed by session + id. */
  private channel(scope: string, stream: PostStream | null): ClientChannel {
    return {
      notify: (method, params) => void stream?.send({ jsonrpc: "2.0", method, params }),
      request: (method, params, signal) => {
        const id = this.replies.newId();
        const answer = this.replies.wait(replyKey(scope, id), signal);
        if (scope === "" || stream === null || !stream.send({ jsonrpc: "2.0", id, method, params })) {
          this.replies.settle(replyKey(scope, id), { error: { message: "this request cannot reach the client (it must accept text/event-stream)" } });
        }
        return answer;
      },
    };
  }
}

/** initialize opens a new session whatever header it carries; everything else must name a live one of its own. */
function isInitialize(call: McpCall): boolean {
  return call.method === "POST" && call.kind === "request" && (call.message as { method: string }).method === "initialize";
}

function sseHeaders(headers: Headers): Headers {
  headers.set("Content-Type", "text/event-stream");
  headers.set("Cache-Control", "no-cache");
  return headers;
}

function missingSession(): Response {
  return rpcErrorResponse(400, TRANSPORT_ERROR, `Bad Request: ${SESSION_HEADER} header is required (send initialize first)`);
}

function sessionNotFound(): Response {
  return rpcErrorResponse(404, SESSION_NOT_FOUND, "Session not found: it expired, was closed or belongs to another caller; initialize again");
}

/** A JSON body, or one SSE `message` event and the end of the stream. */
function formatResponse(response: JsonRpcResponse, mode: ResponseMode, headers: Headers, status = 200): Response {
  if (mode === "json") return jsonResponse(status, response, headers);
  return new Response(`event: message\ndata: ${JSON.stringify(response)}\n\n`, { status, headers: sseHeaders(headers) });
}
