// One SQLite-backed Durable Object per motebit: its key and identity, the jti replay set, MCP sessions,
// rate-limit buckets, memory and receipts — everything that must be serialised. The Worker authenticates
// and calls it over RPC with the caller's principal as plain data (the contract: object-rpc.ts, and the core's
// MotebitRpc for the deployment's motebit).
// The same class holds three kinds of object, told apart by name (roleOfObject in object-rpc.ts, from ctx.id.name),
// and this class is only the shell the runtime constructs: it makes the one part its role has (the deployment's own
// motebit in deployment-motebit.ts, a fleet motebit in fleet-motebit.ts, the fleet's directory in
// fleet-directory.ts), so another role's method finds no part to run and is refused before it touches storage. An
// object with no profile row never starts as a fleet motebit, so a name nobody provisioned answers "unknown" and
// writes nothing.
// The served tools reach it through its constructor: the runtime constructs the class motebitObjectFor(tools)
// returns (createMotebitWorker builds it), so no module state carries them from the Worker's entry to the object.
import { DurableObject } from "cloudflare:workers";
import {
  type DiscoveryAnswer, type EnvLike, type FleetEntry, type FleetOAuthAnswer, type FleetOAuthOp, type FleetPage, type FleetSettingsPatch,
  type FleetSpec, type IdentityAnswer, type LogQuery, type McpCall, type MotebitRpc, type OAuthUrls, type RateDecision, readFleetProfile,
  type ToolRegistry,
} from "../src/index.js";
import { DeploymentMotebit } from "./deployment-motebit.js";
import { FleetDirectory } from "./fleet-directory.js";
import { FleetMotebit } from "./fleet-motebit.js";
import { type FleetAnswer, type FleetCaller, type FleetCheck, type FleetDescription, type ObjectRole, roleOfObject } from "./object-rpc.js";
import type { ObjectEnv } from "./object-env.js";
import { durableSqlPort } from "./sql-port.js";
import { RetiredMcpTasks } from "./retired-mcp-tasks.js";
import { type ObjectState, startBlocking } from "./start-motebit.js";

/** The one part an object has, by its role. */
type Role =
  | { kind: "motebit"; motebit: DeploymentMotebit }
  | { kind: "fleet-motebit"; fleet: FleetMotebit }
  | { kind: "fleet-directory"; directory: FleetDirectory };

export class MotebitObject extends DurableObject<ObjectEnv> implements MotebitRpc {
  private readonly role: Role;

  constructor(ctx: DurableObjectState, env: ObjectEnv, tools: ToolRegistry) {
    super(ctx, env);
    // This class exported as is would start a motebit serving no tools; the runtime must construct motebitObjectFor's.
    if (tools === undefined) throw new Error("motebit-edge: export the MotebitObject that createMotebitWorker returns: `export const { MotebitObject } = worker;`");
    const sql = durableSqlPort(ctx.storage);
    const kind = roleOfObject(ctx.id.name);
    if (kind === "fleet-directory") {
      this.role = { kind, directory: new FleetDirectory(sql, env as unknown as EnvLike) };
      return;
    }
    // A read only: an object with no tables stays without tables.
    const state: ObjectState = { ctx, env, sql, tools, profile: readFleetProfile(sql), started: null, leaseOwner: crypto.randomUUID(), incarnation: { retired: new AbortController() }, retiredTasks: new RetiredMcpTasks() };
    // No request runs before start-up has finished (or failed: a failure is an answer, never a crash loop).
    if (state.profile !== null) state.started = startBlocking(state, state.profile);
    this.role = kind === "fleet-motebit" ? { kind, fleet: new FleetMotebit(state) } : { kind, motebit: new DeploymentMotebit(state) };
  }

  // ---- each role's part; another role's call is refused before it reads or writes anything ----

  private get motebit(): DeploymentMotebit {
    if (this.role.kind === "motebit") return this.role.motebit;
    throw refused(this.role.kind, "motebit");
  }

  private get fleet(): FleetMotebit {
    if (this.role.kind === "fleet-motebit") return this.role.fleet;
    throw refused(this.role.kind, "fleet-motebit");
  }

  private get directory(): FleetDirectory {
    if (this.role.kind === "fleet-directory") return this.role.directory;
    throw refused(this.role.kind, "fleet-directory");
  }

  /** The relay loop's clock: each motebit runs its own (a fleet motebit retired, or never provisioned, has none); the directory has none. */
  async alarm(): Promise<void> {
    if (this.role.kind === "motebit") return this.role.motebit.alarm();
    if (this.role.kind === "fleet-motebit") return this.role.fleet.alarm();
  }

  // ---- the deployment's own motebit (deployment-motebit.ts) ----

  async identity(): Promise<IdentityAnswer> {
    return this.motebit.identity();
  }

  async leaveRelay(): Promise<void> {
    return this.motebit.leaveRelay();
  }

  async wake(): Promise<void> {
    return this.motebit.wake();
  }

  async handleMcp(call: McpCall): Promise<Response> {
    return this.motebit.handleMcp(call);
  }

  async handleOAuth(request: Request, urls: OAuthUrls, source: string): Promise<Response> {
    return this.motebit.handleOAuth(request, urls, source);
  }

  async handleLog(query: LogQuery): Promise<Response> {
    return this.motebit.handleLog(query);
  }

  async discovery(urls: OAuthUrls): Promise<DiscoveryAnswer> {
    return this.motebit.discovery(urls);
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

function refused(role: ObjectRole, asked: ObjectRole): Error {
  return new Error(`this object is a ${role}; it has no ${asked} methods`);
}
