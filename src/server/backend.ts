// What the HTTP app (src/server/app.ts) needs from its host, one object per motebit: InProcessBackend where the state
// is in this process (the Durable Object itself, motebit-local's HTTP server), ObjectBackend where it is in a
// Durable Object the Worker reaches by RPC, and the Worker's FleetBackend for a fleet motebit. State-touching work
// happens behind it, after the app has authenticated the caller.
import type { OAuthUrls } from "../oauth/urls.js";
import type { AuthResult, ServerIdentity } from "../callers/signed-token.js";
import type { ServerConfig } from "../settings/server-config.js";
import type { McpCall } from "./mcp-request.js";
import type { LogQuery } from "../log/log-queries.js";
import type { Discovery } from "../discovery/discover.js";

export interface ServerBackend {
  /** The deployment's settings. Throws StartupError when they are malformed. */
  config(): ServerConfig;
  /** Who this server is. Rejects with StartupError when the motebit cannot start. */
  identity(): Promise<ServerIdentity>;
  /** Decides who is calling, against this motebit's callers and static tokens, with the host's signature check. */
  authenticate(authorization: string | null, now: number): Promise<AuthResult>;
  /** Serves one authenticated MCP request: jti, rate limit, session, then the message itself. */
  handleMcp(call: McpCall): Promise<Response>;
  /**
   * The motebit's authorization server (src/oauth/): /authorize, /token, /register, /oauth/*.
   * `source` is the caller's address as the host saw it (its limits are per source).
   */
  handleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response>;
  /** The transparency log's public head and proofs (src/log/log-queries.ts). */
  handleLog(query: LogQuery): Promise<Response>;
  /** The motebit's public facts and signed discovery documents on these (trusted) URLs (src/discovery/). */
  discovery(urls: OAuthUrls, fleetName: string | null): Promise<Discovery>;
}
