// The stateful half of the Streamable HTTP endpoint, run where requests are serialised (the Durable Object at
// the edge, the process in Node): consume the jti, rate-limit the caller, check the session, run the message.
import type { JsonRpcResponse } from "../mcp/jsonrpc.js";
import type { Clock, SqlPort } from "../ports.js";
import type { Principal } from "../principal.js";
import { tokenRefusal } from "./auth.js";
import type { ServerConfig } from "./config.js";
import { SESSION_HEADER, type McpCall, type ResponseMode } from "./mcp-request.js";
import { RateLimiter } from "./rate-limit.js";
import { ReplayStore } from "./replay-store.js";
import { jsonResponse, rpcErrorResponse, TRANSPORT_ERROR } from "./responses.js";
import { SessionStore } from "./session-store.js";

/** One JSON-RPC message for one principal (Motebit.handleRpc): a response, or null for notifications. */
export type RpcHandler = (message: unknown, ctx: { principal: Principal; sessionId?: string }) => Promise<JsonRpcResponse | null>;

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
  }

  async handle(call: McpCall): Promise<Response> {
    // Admission (jti, rate bucket, session touch or close) commits as one transaction: one fsync in durable
    // mode, and never half of it. The message's own writes come after, when its (async) work is done.
    const refusal = this.sql.transaction(() => this.admit(call));
    if (refusal !== null) return refusal;
    if (call.method === "DELETE") return new Response(null, { status: 204 });

    const { principal } = call;
    const initialize = isInitialize(call);
    const response = await this.rpc(call.message, { principal, sessionId: initialize ? undefined : call.sessionId! });
    if (call.kind !== "request" || response === null) return new Response(null, { status: 202 });

    const headers = new Headers();
    if (initialize && "result" in response) headers.set(SESSION_HEADER, this.sessions.open(principal.callerId));
    return formatResponse(response, call.mode, headers);
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
    if (isInitialize(call)) return null;
    if (call.sessionId === null) return missingSession();
    return this.sessions.use(call.sessionId, principal.callerId) ? null : sessionNotFound();
  }
}

/** initialize opens a new session whatever header it carries; everything else must name a live one of its own. */
function isInitialize(call: McpCall): boolean {
  return call.method === "POST" && call.kind === "request" && (call.message as { method: string }).method === "initialize";
}

function missingSession(): Response {
  return rpcErrorResponse(400, TRANSPORT_ERROR, `Bad Request: ${SESSION_HEADER} header is required (send initialize first)`);
}

function sessionNotFound(): Response {
  return rpcErrorResponse(404, SESSION_NOT_FOUND, "Session not found: it expired, was closed or belongs to another caller; initialize again");
}

/** A JSON body, or one SSE `message` event and the end of the stream. */
function formatResponse(response: JsonRpcResponse, mode: ResponseMode, headers: Headers): Response {
  if (mode === "json") return jsonResponse(200, response, headers);
  headers.set("Content-Type", "text/event-stream");
  headers.set("Cache-Control", "no-cache");
  return new Response(`event: message\ndata: ${JSON.stringify(response)}\n\n`, { status: 200, headers });
}
