// One SQLite-backed Durable Object per motebit: its key and identity, the jti replay set, MCP sessions,
// rate-limit buckets, memory and receipts — everything that must be serialised. The Worker authenticates
// and calls it over RPC with the caller's principal as plain data (the contract: object-rpc.ts).
// The same class holds three kinds of object, told apart by name (roleOfObject in object-rpc.ts, from ctx.id.name)
// and by what is stored, and this class is only the shell the runtime constructs: each kind's methods are its
// role's (the deployment's own motebit below, a fleet motebit in fleet-motebit.ts, the fleet's directory in
// fleet-directory.ts), and an object refuses every other role's methods. An object with no profile row never
// starts as a fleet motebit, so a name nobody provisioned answers "unknown" and writes nothing.
// The served tools reach it through its constructor: the runtime constructs the class motebitObjectFor(tools)
// returns (createMotebitWorker builds it), so no module state carries them from the Worker's entry to the object.
import { DurableObject } from "cloudflare:workers";
import {
  type DiscoveryAnswer, type EnvLike, type FleetEntry, type IdentityAnswer, type LogQuery, type FleetPage, type FleetSettingsPatch, type FleetSpec, type McpCall, type MotebitRpc, type OAuthUrls, type RateDecision, readFleetProfile,
  startupFailureResponse, type ToolRegistry,
} from "../src/index.js";
import type { FleetOAuthAnswer, FleetOAuthOp } from "./fleet-oauth.js";
import { FleetDirectory } from "./fleet-directory.js";
import { FleetMotebit } from "./fleet-motebit.js";
import { type FleetAnswer, type FleetCaller, type FleetCheck, type FleetDescription, type ObjectRole, roleOfObject } from "./object-rpc.js";
import type { ObjectEnv } from "./object-env.js";
import { runRelayAlarm } from "./relay-alarm.js";
import { durableSqlPort } from "./sql-port.js";
import { RetiredTasks } from "./retired-tasks.js";
import { type ObjectState, type Started, startBlocking } from "./start-motebit.js";

/** Deregistration's budget, within the wrapper's own wait (scripts/start-edge.mjs). */
const LEAVE_RELAY_BUDGET_MS = 1_500;

export class MotebitObject extends DurableObject<ObjectEnv> implements MotebitRpc {
  private readonly role: ObjectRole;
  private readonly state: ObjectState;
  private readonly fleetRole: FleetMotebit;
  private readonly directoryRole: FleetDirectory | null;

  constructor(ctx: DurableObjectState, env: ObjectEnv, tools: ToolRegistry) {
    super(ctx, env);
    // This class exported as is would start a motebit serving no tools; the runtime must construct motebitObjectFor's.
    if (tools === undefined) throw new Error("motebit-edge: export the MotebitObject that createMotebitWorker returns: `export const { MotebitObject } = worker;`");
    this.role = roleOfObject(ctx.id.name);
    const sql = durableSqlPort(ctx.storage);
    // A read only: an object with no tables stays without tables.
    this.state = { ctx, env, sql, tools, profile: readFleetProfile(sql), started: null, leaseOwner: crypto.randomUUID(), incarnation: { retired: new AbortController() }, retiredTasks: new RetiredTasks() };
    // No request runs before start-up has finished (or failed: a failure is an answer, never a crash loop).
    if (this.state.profile !== null) this.state.started = startBlocking(this.state, this.state.profile);
    this.fleetRole = new FleetMotebit(this.state);
    this.directoryRole = this.role === "fleet-directory" ? new FleetDirectory(sql, env as unknown as EnvLike) : null;
  }

  /** Fails closed: a method of another role is refused before it reads or writes anything. */
  private as(...roles: ObjectRole[]): void {
    if (!roles.includes(this.role)) throw new Error(`this object is a ${this.role}; it has no ${roles.join(" or ")} methods`);
  }

  private get fleet(): FleetMotebit {
    this.as("fleet-motebit");
    return this.fleetRole;
  }

  private get directory(): FleetDirectory {
    this.as("fleet-directory");
    return this.directoryRole!;
  }

  // ---- the deployment's own motebit: started by its first call (the Worker, the cron or its alarm) ----

  private ownStarted(): Promise<Started> {
    return (this.state.started ??= startBlocking(this.state, null));
  }

  async identity(): Promise<IdentityAnswer> {
    this.as("motebit");
    const s = await this.ownStarted();
    if (!s.ok) return s;
    return { ok: true, motebitId: s.motebitId, publicKeyHex: s.publicKeyHex };
  }

  /** The relay loop's clock (relay-alarm.ts). A retired fleet motebit has no alarm left. */
  async alarm(): Promise<void> {
    this.as("motebit", "fleet-motebit");
    const s = await this.ownStarted();
    if (s.ok && s.relay !== null) await runRelayAlarm(s.relay, this.ctx.storage);
  }

  /**
   * Leaves the relay before this edge stops (`npm start`'s wrapper asks on Ctrl-C through the Worker's scheduled handler, worker/create-worker.ts): a stopped
   * edge left registered is where the relay keeps routing tasks. Best effort within the budget; the next start finds
   * itself unknown to the relay and registers again.
   */
  async leaveRelay(): Promise<void> {
    this.as("motebit");
    const s = await this.ownStarted();
    if (s.ok && s.relay !== null) await s.relay.stop(LEAVE_RELAY_BUDGET_MS);
  }

  /** The cron trigger's call: being constructed is the point (start-up schedules the relay loop). */
  async wake(): Promise<void> {
    this.as("motebit");
    await this.ownStarted();
  }

  async handleMcp(call: McpCall): Promise<Response> {
    this.as("motebit");
    const s = await this.ownStarted();
    return s.ok ? s.backend.handleMcp(call) : startupFailureResponse(s.error);
  }

  /** The deployment's motebit as an authorization server (src/server/oauth/): its grants live in this object's SQLite. */
  async handleOAuth(request: Request, urls: OAuthUrls, source: string): Promise<Response> {
    this.as("motebit");
    const s = await this.ownStarted();
    return s.ok ? s.backend.oauth.handle(request, urls, null, source) : startupFailureResponse(s.error);
  }

  /** The transparency log's public head and proofs, from this object's SQLite. */
  async handleLog(query: LogQuery): Promise<Response> {
    this.as("motebit");
    const s = await this.ownStarted();
    return s.ok ? s.backend.handleLog(query) : startupFailureResponse(s.error);
  }

  /** The deployment's motebit's public facts and signed discovery documents, on the URLs the Worker vouches for. */
  async discovery(urls: OAuthUrls): Promise<DiscoveryAnswer> {
    this.as("motebit");
    const s = await this.ownStarted();
    return s.ok ? { ok: true, value: await s.backend.discovery(urls, null) } : { ok: false, status: 500, error: s.error };
  }

  // ---- a fleet motebit (fleet-motebit.ts) ----

  async fleetProvision(spec: FleetSpec): Promise<FleetAnswer<FleetDescription> | { ok: false; status: 409; error: string }> {
    return this.fleet.provision(spec);
  }

  async fleetCaller(): Promise<FleetAnswer<FleetCaller>> {
    return this.fleet.caller();
  }

  async fleetHandleMcp(call: McpCall, check: FleetCheck): Promise<Response> {
    return this.fleet.handleMcp(call, check);
  }

  async fleetDiscovery(urls: OAuthUrls, fleetName: string | null): Promise<DiscoveryAnswer> {
    return this.fleet.discovery(urls, fleetName);
  }

  async fleetHandleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    return this.fleet.handleOAuth(request, urls, fleetName, source);
  }

  async fleetHandleLog(query: LogQuery): Promise<Response> {
    return this.fleet.handleLog(query);
  }

  async fleetOAuth(op: FleetOAuthOp): Promise<FleetOAuthAnswer | FleetAnswer<never>> {
    return this.fleet.oauth(op);
  }

  async fleetDescribe(): Promise<FleetAnswer<FleetDescription>> {
    return this.fleet.describe();
  }

  async fleetUpdate(patch: FleetSettingsPatch): Promise<FleetAnswer<FleetDescription>> {
    return this.fleet.update(patch);
  }

  async fleetRetire(): Promise<FleetAnswer<{ name: string }>> {
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

/** What the runtime constructs: a Durable Object class as wrangler.toml names it, taking (ctx, env) only. */
export type MotebitObjectClass = new (ctx: DurableObjectState, env: ObjectEnv) => MotebitObject;

/** The object class bound to one deployment's served tools (already validated: ToolRegistry.fromModule). */
export function motebitObjectFor(tools: ToolRegistry): MotebitObjectClass {
  return class extends MotebitObject {
    constructor(ctx: DurableObjectState, env: ObjectEnv) {
      super(ctx, env, tools);
    }
  };
}
