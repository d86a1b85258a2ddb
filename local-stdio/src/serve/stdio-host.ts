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
import { INVALID_REQUEST, PARSE_ERROR, rpcError } from "../../../src/mcp/jsonrpc.js";
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
  // it has finished initializing. The one server-to-client message this host sends unasked.
  let initialized = false;
  const stopWatching = m.registry.onChange(() => {
    if (initialized && !closing) void send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
  });

  transport.onmessage = (message) => {
    if ((message as { method?: unknown }).method === "notifications/initialized") initialized = true;
    const call = m
      .handleRpc(message, { principal: OWNER, signal: aborter.signal })
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
