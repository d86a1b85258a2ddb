// The like-for-like baseline for an OAuth-protected motebit (issue 41): createMcpHandler behind Cloudflare's
// workers-oauth-provider, its grants and tokens in the OAUTH_KV namespace of the same workerd. Everything lives under
// /wop so it never meets the edge's own /authorize, /token and /register. The consent step is a stand-in that
// approves at once (the provider leaves sign-in and consent to the application); the code, the token and every
// check on an API request are the provider's own. Bench-only; never deployed.
import { OAuthProvider, type OAuthHelpers } from "@cloudflare/workers-oauth-provider";
import { createMcpHandler } from "agents/mcp/server";
import { echoServer } from "./echo-server.js";

export const WOP_PREFIX = "/wop";
const MCP_ROUTE = `${WOP_PREFIX}/mcp`;

const mcp = createMcpHandler(echoServer, { route: MCP_ROUTE });

/** The application's /authorize: the provider parses and checks the request; the bench's user approves it. */
const approveAtOnce = {
  async fetch(request: Request, env: { OAUTH_PROVIDER: OAuthHelpers }): Promise<Response> {
    if (new URL(request.url).pathname !== `${WOP_PREFIX}/authorize`) return new Response("not found", { status: 404 });
    const oauthRequest = await env.OAUTH_PROVIDER.parseAuthRequest(request);
    const { redirectTo } = await env.OAUTH_PROVIDER.completeAuthorization({ request: oauthRequest, userId: "bench", metadata: {}, scope: oauthRequest.scope, props: { user: "bench" } });
    return Response.redirect(redirectTo, 302);
  },
};

/** The provider's resource is an absolute URL, known only once a request names the port wrangler dev listens on. */
let provider: OAuthProvider | undefined;

export function oauthProviderSide(request: Request, env: unknown, ctx: ExecutionContext): Promise<Response> {
  provider ??= new OAuthProvider({
    apiRoute: MCP_ROUTE,
    apiHandler: { fetch: mcp as never },
    defaultHandler: approveAtOnce as never,
    authorizeEndpoint: `${WOP_PREFIX}/authorize`,
    tokenEndpoint: `${WOP_PREFIX}/token`,
    clientRegistrationEndpoint: `${WOP_PREFIX}/register`,
    resourceMetadata: { resource: `${new URL(request.url).origin}${MCP_ROUTE}` },
  });
  return provider.fetch(request, env as never, ctx);
}
