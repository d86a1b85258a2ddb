// Cloudflare's McpAgent (agents/mcp, SDK v1 McpServer, one Durable Object per session) serving the same echo, at
// /agent/mcp in the bench Worker: issue 40's "edge ≥ 1.4× McpAgent". Bench-only; never deployed.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { McpAgent } from "agents/mcp";
import { z } from "zod";

export const AGENT_ROUTE = "/agent/mcp";

export class BenchMcpAgent extends McpAgent {
  server = new McpServer({ name: "baseline", version: "1.0.0" });
  async init(): Promise<void> {
    // A schema, not a raw shape: the SDK wraps a raw shape with zod/v4-mini's object(), which fails in wrangler's bundle.
    this.server.registerTool("echo", { description: "Returns the text it is given.", inputSchema: z.object({ text: z.string() }) }, async ({ text }) => ({
      content: [{ type: "text", text }],
    }));
  }
}

export const mcpAgentSide = BenchMcpAgent.serve(AGENT_ROUTE, { binding: "MCP_AGENT" });
