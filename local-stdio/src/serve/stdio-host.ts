// The owner's MCP session over stdio. Whoever holds this process's stdin is the process that launched it,
// so every message here is the owner's, by construction. That is also why it must never be bridged to a
// network: the bridge would make every remote caller the owner.
//
// The MCP SDK's StdioServerTransport does only the framing (newline-delimited JSON-RPC); each message goes
// to Motebit.handleRpc and its one response goes back. stdout carries JSON-RPC and nothing else.
import type { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import type { Motebit } from "../../../src/motebit.js";
import { INVALID_REQUEST, PARSE_ERROR, rpcError, type JsonRpcId } from "../../../src/mcp/jsonrpc.js";
import type { ClientChannel } from "../../../src/mcp/client-channel.js";
import { InFlight } from "../../../src/mcp/in-flight.js";
import { PendingReplies, replyKey } from "../../../src/mcp/pending-replies.js";
import { clientMessageProblem } from "../../../src/mcp/param-schemas.js";
import { newSessionState } from "../../../src/mcp/session.js";
import { removedMethodError, statelessSession } from "../../../src/mcp/stateless-call.js";
import { shapeStatelessResponse } from "../../../src/mcp/stateless-result.js";
import { classifyRevision } from "../../../src/mcp/stateless-revision.js";
import { OWNER } from "../../../src/principal.js";
import { tooDeepMessage } from "../../../src/server/json-depth.js";
import { LineCap, MAX_STDIN_LINE_BYTES } from "./line-cap.js";

/** How long a signal-driven shutdown waits for calls already running to notice the abort. */
const ABORT_GRACE_MS = 2_000;

/** Serves until stdin ends or SIGINT/SIGTERM arrives; resolves once nothing is running any more. */
export function serveStdio(m: Motebit, stdout: Writable, log: (line: string) => void): Promise<string> {
  const aborter = new AbortController();
  const running = new Set<Promise<void>>();
  let closing = false;

  const send = (message: object) => transport.send(message as JSONRPCMessage).catch((e) => log(`motebit: could not write to stdout: ${e}`));
  const lines = new LineCap(MAX_STDIN_LINE_BYTES, (why) =>
    void send(
      rpcError(
        null,
        INVALID_REQUEST,
        why === "too_deep" ? tooDeepMessage() : `Invalid Request: a line on stdin is longer than ${MAX_STDIN_LINE_BYTES} bytes; it was dropped`,
      ),
    ),
  );
  const transport = new StdioServerTransport(process.stdin.pipe(lines), stdout);

  // The owner's tools change while serving (connected MCP servers come, change and die): tell the host, once
  // it has finished initializing.
  let initialized = false;
  const stopWatching = m.registry.onChange(() => {
    if (initialized && !closing) void send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  // One client, one session: its capabilities, log level and subscriptions; its requests in flight (for
  // notifications/cancelled) and our requests to it waiting for an answer (elicitation, sampling).
  const session = newSessionState();
  const inFlight = new InFlight();
  const replies = new PendingReplies();
  const channel: ClientChannel = {
    notify: (method, params) => void send({ jsonrpc: "2.0", method, params }),
    request: (method, params, signal) => {
      const id = replies.newId();
      const answer = replies.wait(replyKey("", id), signal);
      void send({ jsonrpc: "2.0", id, method, params });
      return answer;
    },
  };

  // 2026-07-28 has no server-to-client requests (its calls end input-required instead): notifications only.
  const notificationsOnly: ClientChannel = {
    notify: channel.notify,
    request: async (method) => {
      throw new Error(`protocol 2026-07-28 has no server-to-client requests (${method})`);
    },
  };
  transport.onmessage = (message) => {
    const msg = message as { id?: JsonRpcId; method?: unknown; params?: { requestId?: JsonRpcId; reason?: unknown }; result?: unknown; error?: unknown };
    const bad = typeof msg.method === "string" && "id" in msg ? null : clientMessageProblem(message);
    if (bad !== null) {
      // Nothing answers a notification or a reply; the owner reads why on stderr, the audit log keeps it, and a
      // reply we can still route ends its waiting call now.
      log(`motebit: ignored a malformed ${bad.method}: ${bad.error.message}`);
      if (bad.method === "response" && bad.id !== null) replies.settle(replyKey("", bad.id), { error: { message: `the client's answer was malformed: ${bad.error.message}` } });
      void m.handleRpc(message, { principal: OWNER, signal: aborter.signal, channel, session }).catch(() => {});
      return;
    }
    if (msg.method === undefined && ("result" in msg || "error" in msg)) {
      replies.settle(replyKey("", msg.id), msg as { result?: unknown; error?: { message?: unknown } });
      return;
    }
    if (msg.method === "notifications/initialized") initialized = true;
    if (msg.method === "notifications/cancelled") inFlight.cancel(replyKey("", msg.params?.requestId), String(msg.params?.reason ?? "cancelled by the client"));
    const isRequest = typeof msg.method === "string" && "id" in msg;
    // A 2026-07-28 message is its own session (its _meta says what the client can do); anything else is this one's.
    const revision = classifyRevision(isRequest ? "request" : "notification", msg as never, null);
    if ("refused" in revision) {
      if (isRequest) void send(rpcError(msg.id!, revision.refused.code, revision.refused.message, revision.refused.data));
      return;
    }
    const envelope = revision.stateless ? revision.envelope : null;
    if (envelope !== null && isRequest) {
      const removed = removedMethodError(msg.id!, msg.method as string, envelope);
      if (removed !== null) return void send(removed);
    }
    const key = replyKey("", msg.id);
    const controller = isRequest ? inFlight.begin(key, aborter.signal) : null;
    const call = m
      .handleRpc(message, {
        principal: OWNER,
        signal: controller?.signal ?? aborter.signal,
        channel: envelope === null ? channel : notificationsOnly,
        session: envelope === null ? session : statelessSession(envelope),
      })
      .then(async (response) => {
        if (response === null) return;
        const params = (msg as { params?: Record<string, unknown> }).params;
        await send(envelope === null ? response : shapeStatelessResponse(msg.method as string, params, response));
      })
      .catch((e) => log(`motebit: internal error: ${(e as Error)?.stack ?? e}`))
      .finally(() => {
        if (controller) inFlight.end(key, controller);
        running.delete(call);
      });
    running.add(call);
  };
  // A line that is not JSON, or not JSON-RPC, still gets an answer, as JSON-RPC asks (id null: none could be read).
  transport.onerror = (error) => {
    if (error instanceof SyntaxError) void send(rpcError(null, PARSE_ERROR, "Parse error: a line on stdin is not valid JSON"));
    else if (error?.name === "ZodError") void send(rpcError(null, INVALID_REQUEST, "Invalid Request: a line on stdin is not a JSON-RPC 2.0 message"));
    else log(`motebit: stdio error: ${error?.message ?? error}`);
  };

  return new Promise<string>((resolveDone) => {
    const finish = async (why: string, abort: boolean) => {
      if (closing) return;
      closing = true;
      stopWatching();
      if (abort) aborter.abort(new Error(`shutting down (${why})`));
      // Answers to calls already made still go out; after a signal, only for as long as the grace period.
      const drained = Promise.allSettled([...running]);
      await (abort ? Promise.race([drained, new Promise((r) => setTimeout(r, ABORT_GRACE_MS).unref())]) : drained);
      await transport.close();
      resolveDone(why);
    };
    process.stdin.once("end", () => void finish("stdin closed", false));
    process.stdin.once("close", () => void finish("stdin closed", false));
    // The client went away mid-write (EPIPE): nobody is left to answer.
    process.stdout.on("error", () => void finish("stdout closed", true));
    process.once("SIGINT", () => void finish("SIGINT", true));
    process.once("SIGTERM", () => void finish("SIGTERM", true));
    void transport.start();
  });
}
