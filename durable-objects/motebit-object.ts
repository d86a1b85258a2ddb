// One SQLite-backed Durable Object per motebit: its key and identity, the jti replay set, MCP sessions,
// rate-limit buckets, memory and receipts — everything that must be serialised. The Worker authenticates
// and calls it over RPC with the caller's principal as plain data (the contract: object-rpc.ts).
// The same class holds three kinds of object, told apart by name (worker/fleet-objects.ts) and by what is stored,
// and this class is only the shell the runtime constructs: each kind's methods are its role's (the deployment's
// own motebit below, a fleet motebit in fleet-motebit.ts, the fleet's directory in fleet-directory.ts). An object
// with no profile row never starts as a fleet motebit, so a name nobody provisioned answers "unknown" and writes nothing.
import { DurableObject } from "cloudflare:workers";
import { type EnvLike, type FleetEntry, type FleetPage, type FleetSettingsPatch, type FleetSpec, type McpCall, type OAuthUrls, type RateDecision, readFleetProfile, startupFailureResponse } from "../src/index.js";
import type { FleetOAuthAnswer, FleetOAuthOp } from "./fleet-oauth.js";
import { FleetDirectory } from "./fleet-directory.js";
import { FleetMotebit } from "./fleet-motebit.js";
import type { FleetAnswer, FleetCaller, FleetCheck, FleetDescription, IdentityAnswer } from "./object-rpc.js";
import type { ObjectEnv } from "./object-env.js";
import { runRelayAlarm } from "./relay-alarm.js";
import { durableSqlPort } from "./sql-port.js";
import { RetiredTasks } from "./retired-tasks.js";
import { type ObjectState, type Started, startBlocking } from "./start-motebit.js";

export class MotebitObject extends DurableObject<ObjectEnv> {
  private readonly state: ObjectState;
  private readonly fleet: FleetMotebit;
  private readonly directory: FleetDirectory;

  constructor(ctx: DurableObjectState, env: ObjectEnv) {
    super(ctx, env);
    const sql = durableSqlPort(ctx.storage);
    // A read only: an object with no tables stays without tables.
    this.state = { ctx, env, sql, profile: readFleetProfile(sql), started: null, leaseOwner: crypto.randomUUID(), incarnation: { retired: new AbortController() }, retiredTasks: new RetiredTasks() };
    // No request runs before start-up has finished (or failed: a failure is an answer, never a crash loop).
    if (this.state.profile !== null) this.state.started = startBlocking(this.state, this.state.profile);
    this.fleet = new FleetMotebit(this.state);
    this.directory = new FleetDirectory(sql, env as unknown as EnvLike);
  }

  // ---- the deployment's own motebit: started by its first call (the Worker, the cron or its alarm) ----

  private ownStarted(): Promise<Started> {
    return (this.state.started ??= startBlocking(this.state, null));
  }

  async identity(): Promise<IdentityAnswer> {
    const s = await this.ownStarted();
    if (!s.ok) return s;
    return { ok: true, motebitId: s.motebitId, publicKeyHex: s.publicKeyHex };
  }

  /** The relay loop's clock (relay-alarm.ts). A retired fleet motebit has no alarm left. */
  async alarm(): Promise<void> {
    const s = await this.ownStarted();
    if (s.ok && s.relay !== null) await runRelayAlarm(s.relay, this.ctx.storage);
  }

  /** The cron trigger's call: being constructed is the point (start-up schedules the relay loop). */
  async wake(): Promise<void> {
    await this.ownStarted();
  }

  async handleMcp(call: McpCall): Promise<Response> {
    const s = await this.ownStarted();
    return s.ok ? s.backend.handleMcp(call) : startupFailureResponse(s.error);
  }

  /** The deployment's motebit as an authorization server (src/server/oauth/): its grants live in this object's SQLite. */
  async handleOAuth(request: Request, urls: OAuthUrls): Promise<Response> {
    const s = await this.ownStarted();
    return s.ok ? s.backend.oauth.handle(request, urls, null) : startupFailureResponse(s.error);
  }

  // ---- a fleet motebit (fleet-motebit.ts) ----

  fleetProvision(spec: FleetSpec): Promise<FleetAnswer<FleetDescription> | { ok: false; status: 409; error: string }> {
    return this.fleet.provision(spec);
  }

  fleetCaller(): Promise<FleetAnswer<FleetCaller>> {
    return this.fleet.caller();
  }

  fleetHandleMcp(call: McpCall, check: FleetCheck): Promise<Response> {
    return this.fleet.handleMcp(call, check);
  }

  fleetHandleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null): Promise<Response> {
    return this.fleet.handleOAuth(request, urls, fleetName);
  }

  fleetOAuth(op: FleetOAuthOp): Promise<FleetOAuthAnswer | FleetAnswer<never>> {
    return this.fleet.oauth(op);
  }

  fleetDescribe(): Promise<FleetAnswer<FleetDescription>> {
    return this.fleet.describe();
  }

  fleetUpdate(patch: FleetSettingsPatch): Promise<FleetAnswer<FleetDescription>> {
    return this.fleet.update(patch);
  }

  fleetRetire(): Promise<FleetAnswer<{ name: string }>> {
    return this.fleet.retire();
  }

  // ---- the fleet's directory (fleet-directory.ts) ----

  async directoryReserve(name: string, displayName: string | null): Promise<boolean> {
    return this.directory.reserve(name, displayName);
  }

  async directoryComplete(name: string, ids: { motebitId: string; publicKeyHex: string }): Promise<void> {
    this.directory.complete(name, ids);
  }

  async directoryRemove(name: string): Promise<boolean> {
    return this.directory.remove(name);
  }

  async directoryGet(name: string): Promise<FleetEntry | null> {
    return this.directory.get(name);
  }

  async directoryList(o: { after: string | null; limit: number }): Promise<FleetPage> {
    return this.directory.list(o);
  }

  async directoryOperatorAttempt(source: string, tokenOk: boolean): Promise<RateDecision> {
    return this.directory.operatorAttempt(source, tokenOk);
  }
}
