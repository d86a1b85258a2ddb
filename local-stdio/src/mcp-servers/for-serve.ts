// What `serve` does with "mcpServers": over stdio (the owner) it connects them; over http every caller is a
// peer and their tools are the owner's only, so nothing would ever use them and no process is started.
import type { ToolRegistry } from "motebit-edge/core";
import type { McpServerConfig } from "./config.js";

export async function startOwnerMcpServers(
  configs: McpServerConfig[],
  o: { overStdio: boolean; registry: ToolRegistry; log: (line: string) => void },
): Promise<{ close(): Promise<void> }> {
  if (configs.length === 0) return { close: async () => {} };
  if (!o.overStdio) {
    o.log(`motebit: mcpServers (${configs.length}) not started: their tools are the owner's, and over http every caller is a peer`);
    return { close: async () => {} };
  }
  // The MCP client code loads only when there is a server to connect.
  const { McpServers } = await import("./servers.js");
  const servers = new McpServers(o.registry, o.log);
  await servers.start(configs);
  return servers;
}
