// The owner's connected MCP servers while `serve` runs: all start in parallel, each within its timeout; a server
// that fails or dies is reported with its name and reason and its tools leave the registry (nothing else stops);
// a server's tools/list_changed refreshes its tools. close() ends every connection (and so every child process).
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { riskName, type ToolRegistry } from "motebit-edge/core";
import type { McpServerConfig } from "./config.js";
import { listAllTools, start, StartFailure, type McpConnection } from "./connection.js";
import { servedTools, unknownOverrides } from "./server-tools.js";

type ServerState = "starting" | "connected" | "failed" | "stopped";

interface Entry {
  config: McpServerConfig;
  state: ServerState;
  conn: McpConnection | null;
  refreshing: Promise<void> | null;
  refreshAgain: boolean;
}

export class McpServers {
  private readonly entries = new Map<string, Entry>();
  /** Servers that failed to start and are still being stopped. */
  private readonly stopping = new Set<Promise<void>>();
  private closing = false;

  constructor(
    private readonly registry: ToolRegistry,
    private readonly log: (line: string) => void,
  ) {}

  /** Resolves once every server has connected, failed or timed out; never rejects. */
  async start(configs: McpServerConfig[]): Promise<void> {
    await Promise.all(configs.map((c) => this.startOne(c)));
  }

  /** Ends every connection: stdio servers get stdin closed, then SIGTERM, then SIGKILL (the SDK's sequence). */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all([
      ...this.stopping,
      ...[...this.entries.values()].map(async (e) => {
        const conn = e.conn;
        e.conn = null;
        e.state = "stopped";
        this.registry.removeSource(e.config.name);
        await conn?.close().catch(() => {});
      }),
    ]);
  }

  private async startOne(config: McpServerConfig): Promise<void> {
    const entry: Entry = { config, state: "starting", conn: null, refreshing: null, refreshAgain: false };
    this.entries.set(config.name, entry);
    const label = `MCP server "${config.name}"`;
    let started;
    try {
      started = await start(config, { log: this.log, forwardStderr: true });
    } catch (e) {
      entry.state = "failed";
      this.log(`motebit: ${label} did not start: ${(e as Error).message}; its tools are not available`);
      if (e instanceof StartFailure) {
        this.stopping.add(e.closed);
        void e.closed.then(() => this.stopping.delete(e.closed));
      }
      return;
    }
    const { conn, tools } = started;
    if (this.closing) {
      await conn.close().catch(() => {});
      return;
    }
    entry.conn = conn;
    entry.state = "connected";
    conn.client.setNotificationHandler(ToolListChangedNotificationSchema, () => this.refresh(entry));
    conn.client.onerror = (e) => {
      if (entry.state === "connected") this.log(`motebit: ${label}: ${e?.message ?? e}`);
    };
    conn.client.onclose = () => {
      if (this.closing || entry.conn !== conn) return;
      entry.conn = null;
      entry.state = "stopped";
      this.registry.removeSource(config.name);
      const why = conn.lastStderrLine();
      this.log(`motebit: ${label} stopped (${config.transport === "stdio" ? "its process exited" : "the connection closed"}${why === null ? "" : `; its last stderr line: ${JSON.stringify(why)}`}); its tools are gone`);
    };
    for (const name of unknownOverrides(config, tools)) this.log(`motebit: ${label}: toolRisk names "${name}", which the server does not offer`);
    const count = this.install(entry, tools);
    const target = config.transport === "stdio" ? "stdio" : config.url.origin;
    this.log(`motebit: ${label} connected (${target}): ${count} tools, risk ${riskName(config.risk)}${config.toolRisk.size ? ` (${config.toolRisk.size} overridden)` : ""}`);
  }

  /** Puts the server's tools in the registry; reports the ones left out. Returns how many joined. */
  private install(entry: Entry, tools: Parameters<typeof servedTools>[2]): number {
    const { config, conn } = entry;
    if (conn === null) return 0;
    const label = `MCP server "${config.name}"`;
    const rejected = this.registry.replaceSource(config.name, servedTools(config, conn.client, tools));
    for (const r of rejected) this.log(`motebit: ${label}: tool "${r.name}" left out: ${r.reason}`);
    return tools.length - rejected.length;
  }

  /** tools/list_changed: list again (one refresh at a time; a change during one triggers one more). */
  private refresh(entry: Entry): Promise<void> {
    if (entry.refreshing !== null) {
      entry.refreshAgain = true;
      return entry.refreshing;
    }
    entry.refreshing = (async () => {
      do {
        entry.refreshAgain = false;
        const conn = entry.conn;
        if (conn === null || this.closing) return;
        try {
          const tools = await listAllTools(conn.client);
          if (entry.conn === conn && !this.closing) this.install(entry, tools);
        } catch (e) {
          this.log(`motebit: MCP server "${entry.config.name}": could not list its tools again: ${(e as Error).message}; keeping the ones it had`);
        }
      } while (entry.refreshAgain);
    })().finally(() => {
      entry.refreshing = null;
    });
    return entry.refreshing;
  }
}
