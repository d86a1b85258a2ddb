// The backend whose state lives in this process: the Durable Object itself, or motebit-local's HTTP server. It holds
// the endpoint (jti, rate limit, sessions, then the session engine running the motebit), the authorization server,
// and the signed discovery documents.
import type { Clock, SqlPort } from "../ports.js";
import type { VerifySignature } from "../protocol/index.js";
import type { OAuthUrls } from "../oauth/urls.js";
import { authenticate } from "./auth.js";
import type { AuthResult, ServerIdentity } from "../callers/signed-token.js";
import type { ServerBackend } from "./backend.js";
import type { ServerConfig } from "../settings/server-config.js";
import type { MessageHandler } from "../mcp/engine/message-handler.js";
import { McpEndpoint, type McpEndpointOptions } from "./mcp-endpoint.js";
import type { McpCall } from "./mcp-request.js";
import { AuthorizationServer } from "../oauth/http/authorization-server.js";
import type { FetchClientMetadata } from "../oauth/http/metadata-document-fetch.js";
import { revokedGrantRefusal } from "../oauth/http/grant-refusal.js";
import { answerLogQuery, type LogQuery } from "../log/log-queries.js";
import { jsonResponse } from "./responses.js";
import type { MotebitContext } from "../mcp/motebit-context.js";
import { discover, type Discovery } from "../discovery/discover.js";
import { BoundedCache } from "../bounded/bounded-cache.js";

export type InProcessBackendOptions = {
  config: ServerConfig;
  sql: SqlPort;
  clock: Clock;
  motebit: MotebitContext & MessageHandler;
  /** The host's Ed25519 check for signed tokens (motebit-local: node:crypto); absent, WebCrypto. */
  verify?: VerifySignature;
  /** How Client ID Metadata Documents are fetched (tests inject one); absent, fetch. */
  fetchClientMetadata?: FetchClientMetadata;
} & Pick<McpEndpointOptions, "taskLeases" | "stopped" | "retiredTask">;

export class InProcessBackend implements ServerBackend {
  readonly oauth: AuthorizationServer;
  private readonly endpoint: McpEndpoint;
  private readonly self: ServerIdentity;
  // A few bases at most (publicUrl, or the loopback names a local server answers at).
  private readonly discoveries = new BoundedCache<Discovery>(8);

  constructor(private readonly o: InProcessBackendOptions) {
    this.endpoint = new McpEndpoint({
      sql: o.sql,
      clock: o.clock,
      config: o.config,
      motebit: o.motebit,
      taskLeases: o.taskLeases,
      stopped: o.stopped,
      retiredTask: o.retiredTask,
    });
    this.self = { motebitId: o.motebit.motebitId, publicKeyHex: o.motebit.publicKeyHex };
    this.oauth = new AuthorizationServer({ sql: o.sql, clock: o.clock, signer: o.motebit.signer, motebitId: this.self.motebitId, verify: o.verify, fetchClientMetadata: o.fetchClientMetadata, telemetry: o.motebit.telemetry });
  }

  config(): ServerConfig {
    return this.o.config;
  }

  async identity(): Promise<ServerIdentity> {
    return this.self;
  }

  authenticate(authorization: string | null, now: number): Promise<AuthResult> {
    return authenticate(authorization, this.o.config, this.self, now, this.o.verify);
  }

  async handleMcp(call: McpCall): Promise<Response> {
    return revokedGrantRefusal(this.oauth.store, call.principal, this.o.motebit.telemetry) ?? this.endpoint.handle(call);
  }

  handleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    return this.oauth.handle(request, urls, fleetName, source);
  }

  async handleLog(query: LogQuery): Promise<Response> {
    const m = this.o.motebit;
    const a = await answerLogQuery(query, { log: m.ledger.log, signer: m.signer, motebitId: this.self.motebitId, now: () => this.o.clock.now() });
    // A head is a moment's answer: never served from a cache.
    return jsonResponse(a.status, a.body, { "Cache-Control": "no-store" });
  }

  async discovery(urls: OAuthUrls, fleetName: string | null): Promise<Discovery> {
    // Public and unauthenticated: signed once per base and tool set, not once per request.
    const key = `${this.o.motebit.registry.generation} ${fleetName ?? ""} ${urls.issuer}`;
    let d = this.discoveries.get(key);
    if (d === undefined) this.discoveries.set(key, (d = await discover(this.o.motebit, this.o.config, urls, fleetName)));
    return d;
  }

  /** A graceful shutdown of the host: running tasks are left for its next start (McpTaskHost.handOver). */
  handOver(graceMs: number): Promise<void> {
    return this.endpoint.handOver(graceMs);
  }
}
