// One connection to one of the owner's MCP servers through the official SDK client: a child process over
// stdio, or a Streamable HTTP endpoint. Start-up (connect + first tools/list) is bounded by the server's timeout.
import { StringDecoder } from "node:string_decoder";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { SERVER_INFO } from "motebit-edge/core";
import type { McpServerConfig } from "./config.js";

/** A server's stderr line longer than this is cut when it is logged. */
const MAX_LOGGED_LINE = 2_000;
/** How long closing waits for an HTTP server to end its session before giving up on it. */
const HTTP_GOODBYE_MS = 1_000;

export interface McpConnection {
  client: Client;
  /** The last line the server wrote to stderr (stdio servers), to say why it stopped. */
  lastStderrLine(): string | null;
  close(): Promise<void>;
}

/** Connects and runs the handshake; `forwardStderr` logs each stderr line of a stdio server with its name. */
export async function connect(s: McpServerConfig, o: { log: (line: string) => void; forwardStderr: boolean; timeoutMs: number }): Promise<McpConnection> {
  const client = new Client({ name: SERVER_INFO.name, version: SERVER_INFO.version }, { capabilities: {} });
  let last: string | null = null;
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  if (s.transport === "stdio") {
    // The SDK passes only a few safe variables (PATH, HOME, …) plus the server's own "env": never the motebit's secrets.
    const stdio = new StdioClientTransport({ command: s.command, args: s.args, env: s.env, cwd: s.cwd, stderr: "pipe" });
    let partial = "";
    const utf8 = new StringDecoder("utf8");
    stdio.stderr?.on("data", (chunk: Buffer) => {
      const lines = (partial + utf8.write(chunk)).split(/\r?\n/);
      partial = lines.pop() ?? "";
      if (partial.length > MAX_LOGGED_LINE) {
        lines.push(partial);
        partial = "";
      }
      for (const line of lines) {
        if (line.trim() === "") continue;
        last = line.slice(0, MAX_LOGGED_LINE);
        if (o.forwardStderr) o.log(`[mcp ${s.name}] ${last}`);
      }
    });
    transport = stdio;
  } else {
    transport = new StreamableHTTPClientTransport(s.url, { requestInit: { headers: s.headers } });
  }
  const close = async () => {
    if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined) {
      await Promise.race([transport.terminateSession().catch(() => {}), new Promise((r) => setTimeout(r, HTTP_GOODBYE_MS).unref())]);
    }
    await client.close();
  };
  try {
    await client.connect(transport, { timeout: o.timeoutMs });
  } catch (e) {
    throw new StartFailure(startFailure(s, e, o.timeoutMs, last), close().catch(() => {}));
  }
  return { client, lastStderrLine: () => last, close };
}

/** Why a server did not start; `closed` settles once what was started is gone (a stuck child can take seconds). */
export class StartFailure extends Error {
  constructor(
    message: string,
    readonly closed: Promise<void>,
  ) {
    super(message);
    this.name = "StartFailure";
  }
}

/** Every tool the server offers, page by page. */
export async function listAllTools(client: Client, timeoutMs?: number): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor }, timeoutMs === undefined ? undefined : { timeout: timeoutMs });
    tools.push(...page.tools);
    // A server that hands back a cursor it already gave would page forever.
    if (page.nextCursor !== undefined && seen.has(page.nextCursor)) break;
    cursor = page.nextCursor;
    if (cursor !== undefined) seen.add(cursor);
  } while (cursor !== undefined);
  return tools;
}

/** Connects, lists the tools and hands both back, all within the server's start-up timeout (else closes it). */
export async function start(s: McpServerConfig, o: { log: (line: string) => void; forwardStderr: boolean }): Promise<{ conn: McpConnection; tools: Tool[] }> {
  const deadline = Date.now() + s.startupTimeoutMs;
  const conn = await connect(s, { ...o, timeoutMs: s.startupTimeoutMs });
  try {
    const tools = await listAllTools(conn.client, Math.max(1, deadline - Date.now()));
    return { conn, tools };
  } catch (e) {
    throw new StartFailure(startFailure(s, e, s.startupTimeoutMs, conn.lastStderrLine()), conn.close().catch(() => {}));
  }
}

/** One line saying why a server did not start: a missing command, a timeout, an early exit, an HTTP refusal. */
function startFailure(s: McpServerConfig, e: unknown, timeoutMs: number, lastStderr: string | null): string {
  const err = e as NodeJS.ErrnoException & { cause?: { code?: string; message?: string } };
  const tail = lastStderr === null ? "" : ` (its last stderr line: ${JSON.stringify(lastStderr)})`;
  if (err?.code === "ENOENT" && s.transport === "stdio") return `cannot run ${JSON.stringify(s.command)}: command not found`;
  if (err?.code === "EACCES" && s.transport === "stdio") return `cannot run ${JSON.stringify(s.command)}: permission denied`;
  const message = String(err?.message ?? e);
  if (/timed out/i.test(message)) return `did not answer within ${timeoutMs} ms${tail}`;
  if (/connection closed/i.test(message)) return `exited before the MCP handshake finished${tail}`;
  const cause = err?.cause?.code ?? err?.cause?.message;
  return `${message}${cause ? ` (${cause})` : ""}${tail}`;
}
