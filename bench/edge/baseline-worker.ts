// The bench's Worker: the motebit edge as deployed (worker/index.ts and its Durable Object) plus, at
// /baseline/mcp in the same workerd, Cloudflare's createMcpHandler (agents/mcp/server) over an SDK v2 McpServer
// with the same echo tool: the workerd baseline. Bench-only; never deployed.
import { McpServer } from "@modelcontextprotocol/server";
import { createMcpHandler } from "agents/mcp/server";
import { z } from "zod";
import edge from "../../worker/index.js";

export { MotebitObject } from "../../worker/index.js";

const BASELINE_ROUTE = "/baseline/mcp";

const baseline = createMcpHandler(
  () => {
    const server = new McpServer({ name: "baseline", version: "1.0.0" });
    server.registerTool("echo", { description: "Returns the text it is given.", inputSchema: z.object({ text: z.string() }) }, async ({ text }: { text: string }) => ({
      content: [{ type: "text", text }],
    }));
    return server;
  },
  { route: BASELINE_ROUTE },
);

export default {
  fetch(request: Request, env: unknown, ctx: ExecutionContext): Response | Promise<Response> {
    return new URL(request.url).pathname === BASELINE_ROUTE ? baseline(request, env, ctx) : edge.fetch(request, env as never, ctx);
  },
};
