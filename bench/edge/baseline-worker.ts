// The bench's Worker: the motebit edge as deployed (worker/index.ts and its Durable Object) plus, in the same
// workerd, the baselines serving the same echo tool: Cloudflare's createMcpHandler (agents/mcp/server) over an SDK v2
// McpServer at /baseline/mcp, the same behind workers-oauth-provider under /wop (oauth-provider-side.ts), and McpAgent
// at /agent/mcp (mcp-agent-side.ts). Bench-only; never deployed.
import { createMcpHandler } from "agents/mcp/server";
import edge from "../../worker/index.js";
import { echoServer } from "./echo-server.js";
import { AGENT_ROUTE, mcpAgentSide } from "./mcp-agent-side.js";
import { oauthProviderSide, WOP_PREFIX } from "./oauth-provider-side.js";

export { MotebitObject } from "../../worker/index.js";
export { BenchMcpAgent } from "./mcp-agent-side.js";

const BASELINE_ROUTE = "/baseline/mcp";

const baseline = createMcpHandler(echoServer, { route: BASELINE_ROUTE });

export default {
  fetch(request: Request, env: unknown, ctx: ExecutionContext): Response | Promise<Response> {
    const path = new URL(request.url).pathname;
    if (path === BASELINE_ROUTE) return baseline(request, env, ctx);
    if (path.startsWith(`${WOP_PREFIX}/`)) return oauthProviderSide(request, env, ctx);
    if (path === AGENT_ROUTE) return mcpAgentSide.fetch(request, env, ctx);
    return edge.fetch(request, env as never, ctx);
  },
};
