// The backend of a motebit whose state lives in another object, reached by RPC: the edge's Durable Object
// (durable-objects/motebit-object.ts implements MotebitRpc). The settings are the deployment's, read where the app
// runs; everything stateful is the object's answer.
import type { OAuthUrls } from "../oauth/urls.js";
import { authenticate } from "./auth.js";
import type { AuthResult, ServerIdentity } from "../callers/signed-token.js";
import type { ServerBackend } from "./backend.js";
import type { ServerConfig } from "../settings/server-config.js";
import { StartupError } from "../settings/startup-error.js";
import type { McpCall } from "./mcp-request.js";
import type { LogQuery } from "../log/log-queries.js";
import type { Discovery } from "../discovery/discover.js";
import { UnknownMotebitError } from "./unknown-motebit.js";

export type IdentityAnswer = { ok: true; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

/** A motebit's public facts and signed discovery documents (src/discovery/), or why it cannot answer. */
export type DiscoveryAnswer = { ok: true; value: Discovery } | { ok: false; status: 404 | 500; error: string };

/** What the deployment's motebit answers over RPC, as plain data (the principal inside the call included). */
export interface MotebitRpc {
  identity(): Promise<IdentityAnswer>;
  handleMcp(call: McpCall): Promise<Response>;
  handleOAuth(request: Request, urls: OAuthUrls, source: string): Promise<Response>;
  handleLog(query: LogQuery): Promise<Response>;
  discovery(urls: OAuthUrls): Promise<DiscoveryAnswer>;
}

/** Where the object is: the Worker's Durable Object namespace (a binding of the platform's, not host code). */
export interface MotebitObjects {
  idFromName(name: string): unknown;
  get(id: unknown): MotebitRpc;
}

export class ObjectBackend implements ServerBackend {
  // Only a value is kept, never a pending promise: a promise must not outlive the request that made it.
  private known: ServerIdentity | undefined;

  /**
   * The object named `name` in `objects` holds the motebit. `settings` may be the StartupError they failed with: the
   * backend is built once, before any request, and config() then throws it on every request (the app answers 503).
   */
  constructor(
    private readonly settings: ServerConfig | StartupError,
    private readonly objects: MotebitObjects,
    private readonly name: string,
  ) {}

  config(): ServerConfig {
    if (this.settings instanceof StartupError) throw this.settings;
    return this.settings;
  }

  async identity(): Promise<ServerIdentity> {
    if (this.known) return this.known;
    const answer = await this.object().identity();
    if (!answer.ok) throw new StartupError(answer.error);
    return (this.known = { motebitId: answer.motebitId, publicKeyHex: answer.publicKeyHex });
  }

  async authenticate(authorization: string | null, now: number): Promise<AuthResult> {
    return authenticate(authorization, this.config(), await this.identity(), now);
  }

  handleMcp(call: McpCall): Promise<Response> {
    return this.object().handleMcp(call);
  }

  handleOAuth(request: Request, urls: OAuthUrls, _fleetName: string | null, source: string): Promise<Response> {
    return this.object().handleOAuth(request, urls, source);
  }

  handleLog(query: LogQuery): Promise<Response> {
    return this.object().handleLog(query);
  }

  async discovery(urls: OAuthUrls): Promise<Discovery> {
    return discoveryOf(await this.object().discovery(urls));
  }

  /** A fresh stub per call: one that has seen an error may be broken, and a stub costs nothing until it is used. */
  private object(): MotebitRpc {
    return this.objects.get(this.objects.idFromName(this.name));
  }
}

/** The object's answer as the app expects it: a motebit that cannot start is a StartupError, an unknown one 404. */
export function discoveryOf(answer: DiscoveryAnswer, name = ""): Discovery {
  if (answer.ok) return answer.value;
  if (answer.status === 404) throw new UnknownMotebitError(name);
  throw new StartupError(answer.error);
}
