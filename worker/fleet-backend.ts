// A fleet motebit's backend for one request: the deployment's settings, and the motebit's own identity and callers
// (worker/fleet-callers.ts). The call carries the tag of the settings it was authenticated against and the
// credential, so the object can decide again when they have changed.
import { authenticate, type AuthResult, discoveryOf, type Discovery, isFleetName, type LogQuery, type McpCall, type OAuthUrls, type ServerBackend, type ServerConfig, type ServerIdentity, UnknownMotebitError, withFleetCallers } from "../src/index.js";
import type { FleetCaller } from "../durable-objects/object-rpc.js";
import { deploymentConfig } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { fleetCaller } from "./fleet-callers.js";
import { fleetStub } from "./fleet-objects.js";

/** One per request (the app authenticates before it serves /mcp, and the object is told what that was against). */
export class FleetBackend implements ServerBackend {
  /** Set by authenticate(), which the app runs before handleMcp. */
  private used: { caller: FleetCaller; authorization: string | null } | undefined;

  constructor(
    private readonly env: EdgeEnv,
    private readonly name: string,
  ) {
    if (!isFleetName(name)) throw new UnknownMotebitError(name);
  }

  config(): ServerConfig {
    return deploymentConfig(this.env);
  }

  /** /health: always the object's own answer (a retired name is 404 at once). */
  async identity(): Promise<ServerIdentity> {
    const { motebitId, publicKeyHex } = (await fleetCaller(this.env, this.name, { fresh: true })).caller;
    return { motebitId, publicKeyHex };
  }

  async authenticate(authorization: string | null, now: number): Promise<AuthResult> {
    let { caller, kept } = await fleetCaller(this.env, this.name, { fresh: false });
    let result = await this.check(caller, authorization, now);
    // A refusal under a kept copy may be a caller the operator added since: ask the object once more.
    if (!result.ok && kept) {
      caller = (await fleetCaller(this.env, this.name, { fresh: true })).caller;
      result = await this.check(caller, authorization, now);
    }
    this.used = { caller, authorization };
    return result;
  }

  handleMcp(call: McpCall): Promise<Response> {
    if (this.used === undefined) throw new Error("a fleet call reached handleMcp before authentication");
    return fleetStub(this.env, this.name).fleetHandleMcp(call, { settingsTag: this.used.caller.settingsTag, authorization: this.used.authorization });
  }

  /** The directory first (a name nobody provisioned never gets an object), then the motebit's own grants. */
  async handleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    await fleetCaller(this.env, this.name, { fresh: false });
    return fleetStub(this.env, this.name).fleetHandleOAuth(request, urls, fleetName, source);
  }

  /** The same: an unknown name is 404 before any object is touched. */
  async handleLog(query: LogQuery): Promise<Response> {
    await fleetCaller(this.env, this.name, { fresh: false });
    return fleetStub(this.env, this.name).fleetHandleLog(query);
  }

  async discovery(urls: OAuthUrls, fleetName: string | null): Promise<Discovery> {
    await fleetCaller(this.env, this.name, { fresh: false });
    return discoveryOf(await fleetStub(this.env, this.name).fleetDiscovery(urls, fleetName), this.name);
  }

  /** The same settings the object holds (src/fleet/profile.ts): so the relay's forward bearer, key and id count here too. */
  private check(caller: FleetCaller, authorization: string | null, now: number): Promise<AuthResult> {
    return authenticate(authorization, withFleetCallers(deploymentConfig(this.env), caller.auth), caller, now);
  }
}
