// One SQLite-backed Durable Object per motebit: its key and identity, the jti replay set, MCP sessions,
// rate-limit buckets, memory and receipts — everything that must be serialised. The Worker authenticates
// and calls it over RPC with the caller's principal as plain data.
// The same class holds three kinds of object, told apart by name (worker/fleet-objects.ts) and by what is stored:
// the deployment's own motebit (settings from env), a fleet motebit (a fleet_profile row, written only when the
// operator provisions it), and the fleet's directory (src/fleet/directory.ts). An object with no profile row never
// starts as a fleet motebit, so a name nobody provisioned answers "unknown" and writes nothing.
import { DurableObject } from "cloudflare:workers";
import {
  authenticate, authRefusalResponse, completeEntry, createHostMotebit, type FleetCallers,
  type FleetEntry, type FleetPage, type FleetProfile, fleetServerConfig, type FleetSettingsPatch, type FleetSpec,
  getEntry, inProcessBackend, jsonResponse, type OAuthUrls, listEntries, type McpCall, provisionFleetProfile, readFleetProfile,
  readIdentitySecrets, readServerConfig, type RelayLoop, removeEntry, reserveName, type SqlPort,
  startupFailureResponse, systemClock, updateFleetProfile,
} from "../src/index.js";
import type { ObjectEnv } from "./object-env.js";
import { type FleetOAuthAnswer, type FleetOAuthOp, runFleetOAuthOp } from "./fleet-oauth.js";
import { runRelayAlarm, startEdgeRelay } from "./relay-alarm.js";
import { servedTools } from "../worker/served-tools.js";
import { durableSqlPort } from "./sql-port.js";
import { edgeAiSettings, edgeMemory } from "./edge-ai.js";

export type IdentityAnswer = { ok: true; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

/** A fleet motebit's answer to the Worker: the value, or an HTTP status and message (404: no such motebit). */
export type FleetAnswer<T> = { ok: true; value: T } | { ok: false; status: 404 | 500; error: string };

/** What the Worker needs to authenticate a caller of a fleet motebit; it may keep it, tagged (worker/fleet-callers.ts). */
export interface FleetCaller {
  motebitId: string;
  publicKeyHex: string;
  auth: FleetCallers;
  settingsTag: string;
}

/** What the Worker authenticated against, so the object can tell whether it was still current. */
export interface FleetCheck {
  settingsTag: string;
  authorization: string | null;
}

/** What the operator gets back about one fleet motebit. */
export interface FleetDescription {
  name: string;
  motebit_id: string;
  public_key: string;
  identity: string;
  tools: string[] | null;
  known_callers: string[];
  static_token: boolean;
  created_at: number;
}

type Started = { ok: true; backend: ReturnType<typeof inProcessBackend>; relay: RelayLoop | null; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

const UNKNOWN = { ok: false, status: 404, error: "not found" } as const;

export class MotebitObject extends DurableObject<ObjectEnv> {
  private readonly sql: SqlPort;
  /** Set once this object is a provisioned fleet motebit; null for the default motebit, the directory, and unknown names. */
  private profile: FleetProfile | null;
  private started: Promise<Started> | null = null;

  constructor(ctx: DurableObjectState, env: ObjectEnv) {
    super(ctx, env);
    this.sql = durableSqlPort(ctx.storage);
    // A read only: an object with no tables stays without tables.
    this.profile = readFleetProfile(this.sql);
    // No request runs before start-up has finished (or failed: a failure is an answer, never a crash loop).
    if (this.profile !== null) this.started = this.startBlocking(this.profile);
  }

  private startBlocking(profile: FleetProfile | null): Promise<Started> {
    return this.ctx.blockConcurrencyWhile(() => this.start(profile));
  }

  /** The deployment's own motebit: started by its first call (the Worker, the cron or its alarm). */
  private ownStarted(): Promise<Started> {
    return (this.started ??= this.startBlocking(null));
  }

  private async start(profile: FleetProfile | null): Promise<Started> {
    try {
      const env = this.env as unknown as Record<string, unknown>;
      const deployment = readServerConfig(env);
      const config = profile === null ? deployment : fleetServerConfig(deployment, profile);
      const ai = edgeAiSettings(this.env);
      const log = (line: string) => console.log(profile === null ? line : `[${profile.name}] ${line}`);
      const llm = ai.mode === "ai" ? (await import("./edge-llm.js")).edgeLlm(this.env, ai) : null;
      const motebit = await createHostMotebit({
        sql: this.sql,
        clock: systemClock,
        // A fleet motebit's key was made in this object at provisioning; the deployment's key is never its key.
        secrets: profile === null ? readIdentitySecrets(env) : { privateKeyHex: null, identityFileText: profile.identityFileText },
        config,
        tools: profile?.tools ? servedTools().only(profile.tools) : servedTools(),
        memoryFor: (motebitId) => edgeMemory(this.env, ai, motebitId),
        llm,
        taskTimeoutMs: ai.taskTimeoutMs,
        log,
      });
      log(`motebit ${motebit.motebitId} started; mode: ${ai.mode}${llm ? `; provider: ${llm.provider}; model: ${llm.modelName}` : ""}; embedder: ${motebit.memory.embedder.id}`);
      const relay = await startEdgeRelay({ env, sql: this.sql, storage: this.ctx.storage, motebit, log, fleetName: profile?.name });
      const backend = inProcessBackend({ config, sql: this.sql, clock: systemClock, motebit });
      return { ok: true, backend, relay, motebitId: motebit.motebitId, publicKeyHex: motebit.publicKeyHex };
    } catch (e) {
      const error = (e as Error)?.message ?? String(e);
      console.error(`motebit cannot start: ${error}`);
      return { ok: false, error };
    }
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

  /** A fleet motebit's authorization server; a name nobody provisioned is 404 and starts nothing. */
  async fleetHandleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null): Promise<Response> {
    const s = await this.fleetStarted();
    if (s === null) return jsonResponse(404, { error: UNKNOWN.error });
    return s.ok ? s.backend.oauth.handle(request, urls, fleetName) : startupFailureResponse(s.error);
  }

  /** The operator's side of a fleet motebit's OAuth clients (worker/fleet-oauth-api.ts): approvals this object signs. */
  async fleetOAuth(op: FleetOAuthOp): Promise<FleetOAuthAnswer | FleetAnswer<never>> {
    const s = await this.fleetStarted();
    if (s === null || this.profile === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    return runFleetOAuthOp(s.backend.oauth, op);
  }

  // ---- a fleet motebit (worker/fleet-backend.ts, worker/fleet-api.ts) ----

  /** Makes the key here and starts; the seed never leaves this object. */
  async fleetProvision(spec: FleetSpec): Promise<FleetAnswer<FleetDescription> | { ok: false; status: 409; error: string }> {
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.profile !== null) return { ok: false as const, status: 409 as const, error: `${spec.name} already exists` };
      const profile = await provisionFleetProfile(this.sql, spec, new Date());
      const s = await this.start(profile);
      if (!s.ok) {
        await this.destroy();
        return { ok: false as const, status: 500 as const, error: s.error };
      }
      this.profile = profile;
      this.started = Promise.resolve(s);
      return { ok: true as const, value: describe(profile, s) };
    });
  }

  async fleetCaller(): Promise<FleetAnswer<FleetCaller>> {
    const s = await this.fleetStarted();
    if (s === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    const config = s.backend.config();
    const auth = { authTokenSha256: config.authTokenSha256 ?? null, knownCallers: config.knownCallers };
    return { ok: true, value: { motebitId: s.motebitId, publicKeyHex: s.publicKeyHex, auth, settingsTag: this.profile!.settingsTag } };
  }

  /**
   * One authenticated call. The Worker may have authenticated it against settings it kept: when they are not the
   * current ones (the operator changed them, or the name was retired and made again), the caller is decided again
   * here, against the current settings, before anything is touched.
   */
  async fleetHandleMcp(call: McpCall, check: FleetCheck): Promise<Response> {
    const s = await this.fleetStarted();
    if (s === null || this.profile === null) return jsonResponse(404, { error: UNKNOWN.error });
    if (!s.ok) return startupFailureResponse(s.error);
    if (check.settingsTag !== this.profile.settingsTag) {
      const again = await authenticate(check.authorization, s.backend.config(), { motebitId: s.motebitId, publicKeyHex: s.publicKeyHex }, Date.now());
      if (!again.ok) return authRefusalResponse(again);
      call = { ...call, principal: again.principal, jti: again.jti };
    }
    return s.backend.handleMcp(call);
  }

  async fleetDescribe(): Promise<FleetAnswer<FleetDescription>> {
    const s = await this.fleetStarted();
    if (s === null || this.profile === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    return { ok: true, value: describe(this.profile, s) };
  }

  /** New callers, static token or tools: the motebit restarts over the same state with them. */
  async fleetUpdate(patch: FleetSettingsPatch): Promise<FleetAnswer<FleetDescription>> {
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.profile === null) return UNKNOWN;
      const profile = updateFleetProfile(this.sql, this.profile, patch);
      this.profile = profile;
      const s = await this.start(profile);
      this.started = Promise.resolve(s);
      return s.ok ? { ok: true as const, value: describe(profile, s) } : { ok: false as const, status: 500 as const, error: s.error };
    });
  }

  /** Retires the motebit: key, state and alarm are gone. Its receipts still verify with the public key the operator kept. */
  async fleetRetire(): Promise<FleetAnswer<{ name: string }>> {
    return this.ctx.blockConcurrencyWhile(async () => {
      if (this.profile === null) return UNKNOWN;
      const name = this.profile.name;
      await this.destroy();
      return { ok: true as const, value: { name } };
    });
  }

  private async fleetStarted(): Promise<Started | null> {
    return this.profile === null ? null : this.started;
  }

  private async destroy(): Promise<void> {
    this.profile = null;
    this.started = null;
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.deleteAll();
  }

  // ---- the fleet's directory (src/fleet/directory.ts) ----

  async directoryReserve(name: string, displayName: string | null): Promise<boolean> {
    return reserveName(this.sql, name, displayName, Date.now());
  }

  async directoryComplete(name: string, ids: { motebitId: string; publicKeyHex: string }): Promise<void> {
    completeEntry(this.sql, name, ids);
  }

  async directoryRemove(name: string): Promise<boolean> {
    return removeEntry(this.sql, name);
  }

  async directoryGet(name: string): Promise<FleetEntry | null> {
    return getEntry(this.sql, name);
  }

  async directoryList(o: { after: string | null; limit: number }): Promise<FleetPage> {
    return listEntries(this.sql, o);
  }
}

function describe(p: FleetProfile, s: Extract<Started, { ok: true }>): FleetDescription {
  return {
    name: p.name,
    motebit_id: s.motebitId,
    public_key: s.publicKeyHex,
    identity: p.identityFileText,
    tools: p.tools,
    known_callers: Object.keys(p.knownCallers),
    static_token: p.authTokenSha256 !== null,
    created_at: p.createdAt,
  };
}
