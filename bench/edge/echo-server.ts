// The echo tool every baseline in the bench Worker serves, on an SDK v2 McpServer (what createMcpHandler takes).
import { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

export function echoServer(): McpServer {
  const server = new McpServer({ name: "baseline", version: "1.0.0" });
  server.registerTool("echo", { description: "Returns the text it is given.", inputSchema: z.object({ text: z.string() }) }, async ({ text }: { text: string }) => ({
    content: [{ type: "text", text }],
  }));
  return server;
}
