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
/** How many of a server's last stderr lines a start-up failure shows. */
const TAIL_LINES = 3;

/**
 * What a child gets from the motebit's environment besides its own "env": how to reach the network (proxy) and whom
 * to trust (CA bundles), without which `npx -y …` servers hang behind a TLS-inspecting proxy, plus the names the
 * entry lists in "passEnv". Never anything else: the motebit's secrets stay with it.
 */
const NETWORK_ENV = [
  "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "no_proxy", "all_proxy",
  "NODE_EXTRA_CA_CERTS", "NODE_USE_ENV_PROXY", "SSL_CERT_FILE", "SSL_CERT_DIR", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "npm_config_cafile", "npm_config_proxy", "npm_config_https_proxy",
];

export function childEnv(s: { env: Record<string, string>; passEnv: string[] }, from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of [...NETWORK_ENV, ...s.passEnv]) {
    const v = from[name];
    if (v !== undefined) env[name] = v;
  }
  return { ...env, ...s.env };
}
/** How long closing waits for an HTTP server to end its session before giving up on it. */
const HTTP_GOODBYE_MS = 1_000;
/** How long a server that failed to start may take to be gone: the SDK's stdin end, SIGTERM, SIGKILL (2 s apart). */
const FAILED_STOP_MS = 5_000;

export interface McpConnection {
  client: Client;
  /** The last line the server wrote to stderr (stdio servers), to say why it stopped. */
  lastStderrLine(): string | null;
  /** Its last few stderr lines, oldest first, to say why it did not start. */
  stderrTail(): string[];
  close(): Promise<void>;
}

/** Connects and runs the handshake; `forwardStderr` logs each stderr line of a stdio server with its name. */
export async function connect(s: McpServerConfig, o: { log: (line: string) => void; forwardStderr: boolean; timeoutMs: number }): Promise<McpConnection> {
  const client = new Client({ name: SERVER_INFO.name, version: SERVER_INFO.version }, { capabilities: {} });
  const tail: string[] = [];
  let transport: StdioClientTransport | StreamableHTTPClientTransport;
  // Settles once a stdio server's process is gone (its stderr ends with it); an HTTP server has none.
  let exited: Promise<void> = Promise.resolve();
  if (s.transport === "stdio") {
    // The SDK adds a few safe variables (PATH, HOME, …) to childEnv's: never the motebit's secrets.
    const stdio = new StdioClientTransport({ command: s.command, args: s.args, env: childEnv(s), cwd: s.cwd, stderr: "pipe" });
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
        const kept = line.slice(0, MAX_LOGGED_LINE);
        tail.push(kept);
        if (tail.length > TAIL_LINES) tail.shift();
        if (o.forwardStderr) o.log(`[mcp ${s.name}] ${kept}`);
      }
    });
    exited = new Promise<void>((resolve) => {
      stdio.stderr?.once("end", resolve);
      stdio.stderr?.once("close", resolve);
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
  // After a failed handshake the SDK starts closing the transport itself without waiting, so a second close
  // returns at once while the child may live on (one that ignores stdin's end gets SIGTERM only 2 s later): a
  // failed server counts as stopped once its process is gone, so `serve` never exits and leaves it running.
  const stopFailed = () => close().catch(() => {}).then(() => Promise.race([exited, new Promise<void>((r) => setTimeout(r, FAILED_STOP_MS).unref())]));
  try {
    await client.connect(transport, { timeout: o.timeoutMs });
  } catch (e) {
    throw new StartFailure(startFailure(s, e, o.timeoutMs, tail), stopFailed());
  }
  return { client, lastStderrLine: () => tail.at(-1) ?? null, stderrTail: () => [...tail], close };
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
    throw new StartFailure(startFailure(s, e, s.startupTimeoutMs, conn.stderrTail()), conn.close().catch(() => {}));
  }
}

/** One line saying why a server did not start: a missing command, a timeout, an early exit, an HTTP refusal. */
function startFailure(s: McpServerConfig, e: unknown, timeoutMs: number, stderrTail: string[]): string {
  const err = e as NodeJS.ErrnoException & { cause?: { code?: string; message?: string } };
  const quoted = stderrTail.map((l) => JSON.stringify(l)).join(" | ");
  const tail = stderrTail.length === 0 ? "" : ` (its last stderr line${stderrTail.length > 1 ? "s" : ""}: ${quoted})`;
  if (err?.code === "ENOENT" && s.transport === "stdio") return `cannot run ${JSON.stringify(s.command)}: command not found`;
  if (err?.code === "EACCES" && s.transport === "stdio") return `cannot run ${JSON.stringify(s.command)}: permission denied`;
  const message = String(err?.message ?? e);
  if (/timed out/i.test(message)) return `did not answer within ${timeoutMs} ms${tail}`;
  if (/connection closed/i.test(message)) return `exited before the MCP handshake finished${tail}`;
  const cause = err?.cause?.code ?? err?.cause?.message;
  return `${message}${cause ? ` (${cause})` : ""}${tail}`;
}
