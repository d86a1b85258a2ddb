// The owner's MCP session over stdio. Whoever holds this process's stdin is the process that launched it,
// so every message here is the owner's, by construction. That is also why it must never be bridged to a
// network: the bridge would make every remote caller the owner.
//
// Framing is LineCap's (newline-delimited JSON-RPC, each line capped); each line is decoded and classified by the
// decoder HTTP uses too (decodeMessage) and run by the session engine (src/mcp/engine), and its one response goes
// back as a line. stdout carries JSON-RPC and nothing else.
import type { Writable } from "node:stream";
import {
  type Conduit, decodeMessage, INVALID_REQUEST, type Motebit, OWNER, rpcError, sessionEngineFor, type SqlPort, STDIO_TRANSPORT,
} from "motebit-edge/core";
import { LineCap, MAX_STDIN_LINE_BYTES } from "./line-cap.js";

/** How long a signal-driven shutdown waits for calls already running to notice the abort. */
const ABORT_GRACE_MS = 2_000;

/** Serves until stdin ends or SIGINT/SIGTERM arrives; resolves once nothing is running any more. */
export function serveStdio(m: Motebit, sql: SqlPort, stdout: Writable, log: (line: string) => void): Promise<string> {
  const aborter = new AbortController();
  const running = new Set<Promise<void>>();
  let closing = false;

  // One message, one line; resolves once stdout has taken it (or has drained, under backpressure).
  const send = (message: object) =>
    new Promise<void>((resolve) => {
      try {
        if (stdout.write(`${JSON.stringify(message)}\n`)) resolve();
        else stdout.once("drain", resolve);
      } catch (e) {
        log(`motebit: could not write to stdout: ${e}`);
        resolve();
      }
    });
  const lines = new LineCap(MAX_STDIN_LINE_BYTES, () =>
    void send(rpcError(null, INVALID_REQUEST, `Invalid Request: a line on stdin is longer than ${MAX_STDIN_LINE_BYTES} bytes; it was dropped`)),
  );
  process.stdin.pipe(lines);

  // The owner's tools change while serving (connected MCP servers come, change and die): tell the host, once
  // it has finished initializing.
  let initialized = false;
  const stopWatching = m.registry.onChange(() => {
    if (initialized && !closing) void send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  // One client, one connection, one session: the engine routes its answers and cancellations, runs its tasks.
  const engine = sessionEngineFor(sql, m.clock, m, { host: "owner" });
  const conduit: Conduit = {
    scope: "stdio",
    session: engine.session("stdio"),
    send: (message) => (void send(message), !closing),
    cannotAsk: null,
    closed: aborter.signal,
  };
  const onLine = (line: Buffer) => {
    // A last line without a newline is dropped, as newline-delimited framing always has.
    if (line[line.length - 1] !== 0x0a) return;
    // A 2026-07-28 message is its own session (its _meta says what the client can do); anything else is this one's.
    // A line that is not JSON still gets an answer, as JSON-RPC asks; a refused notification gets none.
    const c = decodeMessage(line.toString("utf8", 0, line.length - 1), null, "Parse error: a line on stdin is not valid JSON");
    if (!c.ok) return void (c.notification || send(c.response));
    const message = c.message;
    if (c.kind === "notification" && (message as { method?: unknown }).method === "notifications/initialized") initialized = true;
    const call = engine
      .receive({ principal: OWNER, kind: c.kind, message, envelope: c.envelope, transport: STDIO_TRANSPORT }, conduit)
      .then(async (r) => {
        // Nothing answers a notification or a reply; the owner reads why on stderr, and the audit log keeps it.
        if (r.type === "malformed") return log(`motebit: ignored a malformed ${c.kind}: ${"error" in r.error ? r.error.error.message : ""}`);
        if (r.response !== null) await send(r.response);
      })
      .catch((e) => log(`motebit: internal error: ${(e as Error)?.stack ?? e}`))
      .finally(() => running.delete(call));
    running.add(call);
  };
  lines.on("data", onLine);
  lines.on("error", (error) => log(`motebit: stdio error: ${error?.message ?? error}`));

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
      lines.off("data", onLine);
      process.stdin.unpipe(lines);
      lines.pause();
      resolveDone(why);
    };
    process.stdin.once("end", () => void finish("stdin closed", false));
    process.stdin.once("close", () => void finish("stdin closed", false));
    // The client went away mid-write (EPIPE): nobody is left to answer.
    process.stdout.on("error", () => void finish("stdout closed", true));
    process.once("SIGINT", () => void finish("SIGINT", true));
    process.once("SIGTERM", () => void finish("SIGTERM", true));
  });
}
