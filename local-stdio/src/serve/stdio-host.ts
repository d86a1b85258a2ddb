// The owner's MCP session over stdio. Whoever holds this process's stdin is the process that launched it,
// so every message here is the owner's, by construction. That is also why it must never be bridged to a
// network: the bridge would make every remote caller the owner.
//
// The MCP SDK's StdioServerTransport does only the framing (newline-delimited JSON-RPC); each message goes to
// the session engine (src/mcp/engine), which runs it through Motebit.handleClassified, and its one response goes
// back. stdout carries JSON-RPC and nothing else.
import type { Writable } from "node:stream";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import {
  classifyMessage, classifyRevision, type Conduit, INVALID_REQUEST, type Motebit, OWNER, PARSE_ERROR, rpcError,
  sessionEngineFor, type SqlPort, tooDeepMessage,
} from "motebit-edge/core";
import { LineCap, MAX_STDIN_LINE_BYTES } from "./line-cap.js";

/** How long a signal-driven shutdown waits for calls already running to notice the abort. */
const ABORT_GRACE_MS = 2_000;

/** Serves until stdin ends or SIGINT/SIGTERM arrives; resolves once nothing is running any more. */
export function serveStdio(m: Motebit, sql: SqlPort, stdout: Writable, log: (line: string) => void): Promise<string> {
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

  // One client, one connection, one session: the engine routes its answers and cancellations, runs its tasks.
  const engine = sessionEngineFor(sql, m.clock, (message, ctx) => m.handleClassified(message, ctx), { host: "owner" });
  const conduit: Conduit = {
    scope: "stdio",
    session: engine.session("stdio"),
    send: (message) => (void send(message), !closing),
    cannotAsk: null,
    closed: aborter.signal,
  };
  transport.onmessage = (message) => {
    const c = classifyMessage(message);
    if (c.kind === "invalid") return void send(rpcError(c.id, INVALID_REQUEST, `Invalid request: ${c.reason}`));
    const msg = message as { method?: unknown };
    if (msg.method === "notifications/initialized") initialized = true;
    // A 2026-07-28 message is its own session (its _meta says what the client can do); anything else is this one's.
    const revision = classifyRevision(c.kind, message as never, null);
    if ("refused" in revision) {
      if (c.kind === "request") void send(rpcError(revision.refused.id, revision.refused.code, revision.refused.message, revision.refused.data));
      return;
    }
    const incoming = { principal: OWNER, kind: c.kind, message, envelope: revision.stateless ? revision.envelope : null };
    const call = engine
      .malformed(incoming, conduit)
      .then((bad) => {
        // Nothing answers a notification or a reply; the owner reads why on stderr, and the audit log keeps it.
        if (bad === null) return engine.receive(incoming, conduit);
        log(`motebit: ignored a malformed ${c.kind}: ${"error" in bad ? bad.error.message : ""}`);
        return null;
      })
      .then(async (response) => {
        if (response !== null) await send(response);
      })
      .catch((e) => log(`motebit: internal error: ${(e as Error)?.stack ?? e}`))
      .finally(() => running.delete(call));
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
      // Running tasks let go of their leases, so the next start resumes them at once instead of after they lapse.
      await Promise.all([abort ? Promise.race([drained, new Promise((r) => setTimeout(r, ABORT_GRACE_MS).unref())]) : drained, engine.handOver(ABORT_GRACE_MS)]);
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
