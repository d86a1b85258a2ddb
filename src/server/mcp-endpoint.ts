// The stateful half of the Streamable HTTP endpoint, run where requests are serialised (the Durable Object at
// the edge, the process in Node): consume the jti, rate-limit the caller, check the session, then hand the message
// to the session engine. What is HTTP's own stays here: session ids in headers, status codes, JSON or SSE.
import type { MessageHandler } from "../mcp/engine/message-handler.js";
import type { Conduit, SessionEngine } from "../mcp/engine/session-engine.js";
import { TRANSPORT_ERROR, type JsonRpcResponse } from "../mcp/jsonrpc.js";
import { newSessionState } from "../mcp/session.js";
import { statelessHttpStatus } from "../mcp/stateless/result.js";
import type { Clock, SqlPort } from "../ports.js";
import { peerHolder } from "../principal.js";
import { tokenRefusal } from "../callers/signed-token.js";
import type { ServerConfig } from "../settings/server-config.js";
import { SESSION_HEADER, type McpCall, type ResponseMode } from "./mcp-request.js";
import { RateLimiter } from "../callers/rate-limit.js";
import { ReplayStore } from "../callers/replay-store.js";
import { PostStream } from "./post-stream.js";
import { jsonResponse, rpcErrorResponse } from "./responses.js";
import { sessionEngineFor } from "../mcp/engine/session-engine-for-host.js";
import type { McpTasksOptions } from "../mcp/engine/mcp-tasks.js";
import { SessionStore } from "./session-store.js";
import { count, instrumentsOf } from "../telemetry/instruments.js";
import type { TelemetryPort } from "../telemetry/port.js";

/** MCP's code for an unknown session. */
const SESSION_NOT_FOUND = -32001;

export interface McpEndpointOptions {
  sql: SqlPort;
  clock: Clock;
  config: Pick<ServerConfig, "rateLimitPerMinute" | "sessionTtlMs" | "maxSessionsPerCaller">;
  /** The motebit the engine runs each message through. */
  motebit: MessageHandler;
  /** Whose leases its task runs hold (mcp-tasks.ts); default: this endpoint's own, alongside any other host. */
  taskLeases?: Pick<McpTasksOptions, "owner" | "sole">;
  /** Aborted when the host retires this motebit: every call and task still running ends (its receipt says why). */
  stopped?: AbortSignal;
  /** The tasks of a retired motebit that had this name (mcp-tasks.ts `retired`). */
  retiredTask?: McpTasksOptions["retired"];
}

export class McpEndpoint {
  private readonly replay: ReplayStore;
  private readonly sessions: SessionStore;
  private readonly limiter: RateLimiter;
  private readonly sql: SqlPort;
  private readonly engine: SessionEngine;
  private readonly stopped: AbortSignal | undefined;
  private readonly telemetry: TelemetryPort | null;
  private readonly clock: Clock;
  /** Numbers the POSTs that are their own scope (initialize, 2026-07-28 requests). */
  private posts = 0;

  /** Creates its tables if missing. */
  constructor(o: McpEndpointOptions) {
    this.replay = new ReplayStore(o.sql, o.clock);
    this.sessions = new SessionStore(o.sql, o.clock, { ttlMs: o.config.sessionTtlMs, maxPerCaller: o.config.maxSessionsPerCaller });
    this.limiter = new RateLimiter(o.sql, o.clock, o.config.rateLimitPerMinute);
    this.sql = o.sql;
    this.replay.migrate();
    this.sessions.migrate();
    this.limiter.migrate();
    // HTTP callers are peers: an owner's task (made over stdio) never runs here.
    this.engine = sessionEngineFor(o.sql, o.clock, o.motebit, { host: "peer", ...o.taskLeases, stopped: o.stopped, retired: o.retiredTask });
    this.stopped = o.stopped;
    this.telemetry = o.motebit.telemetry ?? null;
    this.clock = o.clock;
  }

  /** A graceful shutdown of the host: running tasks are left for its next start (McpTaskHost.handOver). */
  handOver(graceMs: number): Promise<void> {
    return this.engine.handOver(graceMs);
  }

  async handle(call: McpCall): Promise<Response> {
    // Admission (jti, rate bucket, session touch or close) commits as one transaction: one fsync in durable
    // mode, and never half of it. The message's own writes come after, when its (async) work is done.
    const refusal = this.sql.transaction(() => this.admit(call));
    if (refusal !== null) return refusal;
    if (call.method === "DELETE") {
      this.engine.forget(sessionScope(call.sessionId!));
      return new Response(null, { status: 204 });
    }

    const initialize = isInitialize(call);
    const stateless = call.stateless ?? null;
    // A session's messages share its scope; initialize and a 2026-07-28 request are their own (only their own
    // connection reaches them: another POST by the same caller, even with the same token, cannot cancel them).
    const ownScope = initialize || stateless !== null;
    const scope = ownScope ? `post:${++this.posts}` : sessionScope(call.sessionId!);
    // initialize's session is kept only once it succeeds; a 2026-07-28 request has none.
    const opening = initialize ? newSessionState() : null;
    const session = opening ?? (stateless !== null ? null : this.engine.session(scope));
    // The client went away mid-stream: its call stops, and what it waits for from the client is freed.
    const stream = new PostStream(call.sse === true, () => this.engine.cancel(scope, (call.message as { id?: unknown }).id, "the client closed the connection"));
    const conduit: Conduit = {
      scope,
      session,
      send: (message) => stream.send(message),
      cannotAsk: !call.sse
        ? "this request cannot reach the client (it must accept text/event-stream)"
        : initialize
          ? "this request cannot reach the client before its session exists"
          : null,
      closed: this.stopped,
    };
    const transport = { network: "tcp" as const, headers: call.traceHeaders, sessionId: call.sessionId, protocolVersion: call.protocolVersion };
    const incoming = { principal: call.principal, kind: call.kind, message: call.message, envelope: stateless, transport };
    const received = this.engine.receive(incoming, conduit);
    if (call.kind !== "request") {
      // Input it cannot accept gets an error status in Streamable HTTP.
      const r = await received;
      return r.type === "malformed" ? jsonResponse(400, r.error) : new Response(null, { status: 202 });
    }
    // A request is never judged malformed here (dispatch type-checks it and answers in JSON-RPC).
    const ended = received.then((r) => (r.type === "answer" ? r.response : r.error));
    await Promise.race([ended, stream.opened]).catch(() => {});
    if (stream.started) {
      ended.then(
        (response) => stream.finish(response),
        () => stream.finish({ jsonrpc: "2.0", id: (call.message as { id: unknown }).id, error: { code: -32603, message: "Internal error" } }),
      );
      return new Response(stream.body, { status: 200, headers: sseHeaders(new Headers()) });
    }
    const response = await ended;
    if (response === null) return new Response(null, { status: 202 });

    const headers = new Headers();
    if (opening !== null && "result" in response) {
      const id = this.sessions.open(peerHolder(call.principal));
      this.engine.remember(sessionScope(id), opening);
      headers.set(SESSION_HEADER, id);
    }
    return formatResponse(response, call.mode, headers, stateless !== null ? statelessHttpStatus(response) : 200);
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
      count(this.telemetry, (i) => i.rateLimited);
      return rpcErrorResponse(429, TRANSPORT_ERROR, `Too Many Requests: retry after ${rate.retryAfterSeconds} s`, {
        "Retry-After": String(rate.retryAfterSeconds),
      });
    }
    if (call.method === "DELETE") {
      if (call.sessionId === null) return missingSession();
      // Read only when someone measures: the session's age as it closes (mcp.server.session.duration).
      const openedAt = this.telemetry === null ? null : this.sessions.openedAt(call.sessionId);
      if (!this.sessions.close(call.sessionId, peerHolder(principal))) return sessionNotFound();
      if (openedAt !== null) instrumentsOf(this.telemetry!).sessionDuration.record((this.clock.now() - openedAt) / 1000, { "network.transport": "tcp" });
      return null;
    }
    // initialize opens a session; a 2026-07-28 request needs none.
    if (isInitialize(call) || call.stateless !== undefined) return null;
    if (call.sessionId === null) return missingSession();
    return this.sessions.use(call.sessionId, peerHolder(principal)) ? null : sessionNotFound();
  }
}

/** A session's scope in the engine. */
function sessionScope(sessionId: string): string {
  return `session:${sessionId}`;
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

/** A JSON body, or one SSE `message` event and the end of the stream. An error status always carries JSON. */
function formatResponse(response: JsonRpcResponse, mode: ResponseMode, headers: Headers, status: number): Response {
  if (mode === "json" || status !== 200) return jsonResponse(status, response, headers);
  return new Response(`event: message\ndata: ${JSON.stringify(response)}\n\n`, { status, headers: sseHeaders(headers) });
}
