// What the HTTP app (src/server/app.ts) needs from its host. At the edge the Worker forwards to the motebit's
// Durable Object; in Node the same pieces run in-process. Either way, state-touching work happens here,
// after the app has authenticated the caller.
import type { Clock, SqlPort } from "../ports.js";
import type { VerifySignature } from "../protocol/index.js";
import type { OAuthUrls } from "../oauth/urls.js";
import { authenticate } from "./auth.js";
import type { AuthResult, ServerIdentity } from "../callers/signed-token.js";
import type { ServerConfig } from "../settings/server-config.js";
import type { RpcHandler } from "../mcp/engine/rpc-handler.js";
import { McpEndpoint, type McpEndpointOptions } from "./mcp-endpoint.js";
import type { McpCall } from "./mcp-request.js";
import { AuthorizationServer } from "../oauth/http/authorization-server.js";
import type { FetchClientMetadata } from "../oauth/http/metadata-document-fetch.js";
import { revokedGrantRefusal } from "../oauth/http/admission.js";
import type { LogStore } from "../log/log-store.js";
import { answerLogQuery, type LogQuery } from "../log/log-queries.js";
import { jsonResponse } from "./responses.js";
import type { MotebitContext } from "../mcp/context.js";
import { discover, type Discovery } from "../discovery/discover.js";
import { BoundedCache } from "../bounded/bounded-cache.js";

export interface ServerBackend {
  /** The deployment's settings. Throws StartupError when they are malformed. */
  config(): ServerConfig;
  /** Who this server is. Rejects with StartupError when the motebit cannot start. */
  identity(): Promise<ServerIdentity>;
  /**
   * Decides who is calling: against a fleet motebit's own callers and static token, or with the host's own
   * signature check. Absent: the app authenticates against config() and identity(), with WebCrypto.
   */
  authenticate?(authorization: string | null, now: number): Promise<AuthResult>;
  /** Serves one authenticated MCP request: jti, rate limit, session, then the message itself. */
  handleMcp(call: McpCall): Promise<Response>;
  /**
   * The motebit's authorization server (src/oauth/http/): /authorize, /token, /register, /oauth/*. Absent: 404.
   * `source` is the caller's address as the host saw it (its limits are per source).
   */
  handleOAuth?(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response>;
  /** The transparency log's public head and proofs (src/log/log-queries.ts). Absent: 404. */
  handleLog?(query: LogQuery): Promise<Response>;
  /** The motebit's public facts and signed discovery documents on these (trusted) URLs (src/discovery/). Absent: 404. */
  discovery?(urls: OAuthUrls, fleetName: string | null): Promise<Discovery>;
}

/** A backend whose state lives in this process (the Durable Object itself, or motebit-local's HTTP server). */
export function inProcessBackend(o: {
  config: ServerConfig;
  sql: SqlPort;
  clock: Clock;
  motebit: MotebitContext & { handleClassified: RpcHandler };
  /** The host's Ed25519 check for signed tokens (motebit-local: node:crypto); absent, WebCrypto. */
  verify?: VerifySignature;
  /** How Client ID Metadata Documents are fetched (tests inject one); absent, fetch. */
  fetchClientMetadata?: FetchClientMetadata;
} & Pick<McpEndpointOptions, "taskLeases" | "stopped" | "retiredTask">): ServerBackend & Required<Pick<ServerBackend, "handleLog" | "discovery">> & Pick<McpEndpoint, "handOver"> & { oauth: AuthorizationServer } {
  const endpoint = new McpEndpoint({
    sql: o.sql,
    clock: o.clock,
    config: o.config,
    rpc: (m, ctx) => o.motebit.handleClassified(m, ctx),
    taskLeases: o.taskLeases,
    stopped: o.stopped,
    retiredTask: o.retiredTask,
  });
  const identity: ServerIdentity = { motebitId: o.motebit.motebitId, publicKeyHex: o.motebit.publicKeyHex };
  // A few bases at most (publicUrl, or the loopback names a local server answers at).
  const discoveries = new BoundedCache<Discovery>(8);
  const oauth = new AuthorizationServer({ sql: o.sql, clock: o.clock, signer: o.motebit.signer, motebitId: identity.motebitId, verify: o.verify, fetchClientMetadata: o.fetchClientMetadata });
  return {
    config: () => o.config,
    identity: async () => identity,
    authenticate: (authorization, now) => authenticate(authorization, o.config, identity, now, o.verify),
    handleMcp: async (call) => revokedGrantRefusal(oauth.store, call.principal) ?? endpoint.handle(call),
    handleOAuth: (request, urls, fleetName, source) => oauth.handle(request, urls, fleetName, source),
    handleLog: async (query) => {
      const a = await answerLogQuery(query, { log: o.motebit.ledger.log, signer: o.motebit.signer, motebitId: identity.motebitId, now: () => o.clock.now() });
      // A head is a moment's answer: never served from a cache.
      return jsonResponse(a.status, a.body, { "Cache-Control": "no-store" });
    },
    async discovery(urls, fleetName) {
      // Public and unauthenticated: signed once per base and tool set, not once per request.
      const key = `${o.motebit.registry.generation} ${fleetName ?? ""} ${urls.issuer}`;
      let d = discoveries.get(key);
      if (d === undefined) discoveries.set(key, (d = await discover(o.motebit, o.config, urls, fleetName)));
      return d;
    },
    handOver: (graceMs) => endpoint.handOver(graceMs),
    oauth,
  };
}
