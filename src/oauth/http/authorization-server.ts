// A motebit as its own OAuth 2.1 authorization server (MCP authorization, 2025-11-25): dynamic registration
// (RFC 7591) or Client ID Metadata Documents, authorization code with PKCE S256 only, the resource indicator
// (RFC 8707) bound to this motebit's /mcp, rotating refresh tokens. It runs where the motebit's SQLite is (the
// Durable Object, the Node process), so single use is one conditional UPDATE and holds under concurrency.
// The owner approves at /authorize with an approval signed by the motebit's key; a client never becomes the owner.
// Each endpoint is its own file; this binds them to the one route table (../paths.ts) and holds their state.
import type { CallerTrust } from "../../principal.js";
import type { Clock, SqlPort } from "../../ports.js";
import type { Signer, VerifySignature } from "../../protocol/index.js";
import { RateLimiter } from "../../callers/rate-limit.js";
import { ReplayStore } from "../../callers/replay-store.js";
import { jsonResponse } from "../../server/responses.js";
import type { RequestDetails } from "../approval.js";
import { FLEET_PREFIX, OAUTH_ENDPOINTS, oauthEndpointAt } from "../paths.js";
import { OAuthStore, ownerListing, type ClientListing, type OwnerListing } from "../store.js";
import type { OAuthUrls } from "../urls.js";
import { tooManyRequests } from "./answers.js";
import { authorizeRequest } from "./authorize.js";
import { ClientResolver } from "./client-resolver.js";
import { answerConsent } from "./consent-answer.js";
import type { OAuthContext, OAuthHandler } from "./context.js";
import { metadataDocumentFetcher, type FetchClientMetadata } from "./metadata-document-fetch.js";
import { operatorApproval, ownerCommand, pendingRequestDetails } from "./owner.js";
import { register } from "./register.js";
import { token } from "./token.js";
import type { TelemetryPort } from "../../telemetry/port.js";

/** Requests per minute (the burst too) one source may make to all OAuth endpoints together; a client's whole sign-in is a handful. */
export const OAUTH_REQUESTS_PER_SOURCE_PER_MINUTE = 60;

export interface AuthorizationServerOptions {
  sql: SqlPort;
  clock: Clock;
  signer: Signer;
  motebitId: string;
  verify?: VerifySignature;
  /** Default: metadataDocumentFetcher(fetch): without redirects, 5 s, 64 KiB. */
  fetchClientMetadata?: FetchClientMetadata;
  /** The operator's OpenTelemetry: grants and revocations are counted there. */
  telemetry?: TelemetryPort | null;
}

type Endpoints = typeof OAUTH_ENDPOINTS;
/** A handler for each method of each endpoint in the table: the compiler holds this to the table. */
const HANDLERS: { [N in keyof Endpoints]: Record<Endpoints[N]["methods"][number], OAuthHandler> } = {
  authorize: { GET: authorizeRequest, POST: answerConsent },
  token: { POST: token },
  register: { POST: register },
  owner: { POST: ownerCommand },
  requestDetails: { GET: pendingRequestDetails },
};

export class AuthorizationServer {
  readonly store: OAuthStore;
  private readonly ctx: OAuthContext;
  private readonly perSource: RateLimiter;

  constructor(o: AuthorizationServerOptions) {
    this.store = new OAuthStore(o.sql, o.telemetry ?? null);
    this.store.migrate();
    const replay = new ReplayStore(o.sql, o.clock);
    replay.migrate();
    this.perSource = new RateLimiter(o.sql, o.clock, OAUTH_REQUESTS_PER_SOURCE_PER_MINUTE);
    this.perSource.migrate();
    const clients = new ClientResolver(this.store, o.clock, o.fetchClientMetadata ?? metadataDocumentFetcher(fetch));
    this.ctx = { store: this.store, replay, clients, clock: o.clock, signer: o.signer, motebitId: o.motebitId, verify: o.verify };
  }

  /**
   * One request to an authorization-server path below the motebit's prefix (/m/<name> for a fleet motebit), from
   * `source` (the caller's address as the host saw it, never a value the caller sent): every OAuth request takes one
   * from the source's bucket.
   */
  async handle(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    // Below the prefix the request came in under, not the issuer's path: a publicUrl may carry a path of its own.
    const path = new URL(request.url).pathname.slice(fleetName === null ? 0 : `${FLEET_PREFIX}${fleetName}`.length);
    const method = request.method;
    const at = oauthEndpointAt(path);
    // Its own key space in the shared bucket table: MCP callers' buckets are keyed oauth:<client_id>, static:…, …
    const gate = this.perSource.take(`oauth-source:${source}`);
    if (!gate.ok) return tooManyRequests(gate.retryAfterSeconds, at?.name === "authorize" && method === "GET");
    if (at === null) return jsonResponse(404, { error: "not found" });
    const handler = (HANDLERS[at.name] as Partial<Record<string, OAuthHandler>>)[method];
    // A wrong method at a fixed path is 405; under a path with a parameter it names nothing here, as any unknown path.
    if (handler === undefined) return at.endpoint.param === undefined ? jsonResponse(405, { error: "method not allowed" }) : jsonResponse(404, { error: "not found" });
    return handler(this.ctx, { request, urls, fleetName, source, param: at.param });
  }

  /** A fleet motebit's approval, made by its own object for the operator (whose token was checked by the Worker). */
  operatorApproval(code: string, trust: CallerTrust): Promise<{ ok: true; approval: string; request: RequestDetails } | { ok: false; why: string }> {
    return operatorApproval(this.ctx, code, trust);
  }

  listClients(): ClientListing[] {
    return this.store.listClients();
  }

  /** The owner's `list` (motebit-local oauth list, the fleet operator's): approved clients apart from the rest. */
  ownerListing(): OwnerListing {
    return ownerListing(this.store.listClients());
  }

  revokeClient(clientId: string): boolean {
    return this.store.revokeClient(clientId, this.ctx.clock.now());
  }
}
