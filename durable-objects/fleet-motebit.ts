// A fleet motebit's role in its Durable Object (worker/fleet-backend.ts, worker/fleet-api.ts call it): provisioned by
// the operator (a fleet_profile row, written only then), so a name nobody provisioned answers "unknown" and writes
// nothing. Its key is made here and never leaves.
import {
  authenticate, authRefusalResponse, type DiscoveryAnswer, type FleetProfile, type FleetSettingsPatch, type FleetSpec, jsonResponse, type McpCall,
  HostStop, type LogQuery, type OAuthUrls, provisionFleetProfile, startupFailureResponse, updateFleetProfile,
} from "../src/index.js";
import { type FleetOAuthAnswer, type FleetOAuthOp, runFleetOAuthOp } from "../src/index.js";
import type { FleetAnswer, FleetCaller, FleetCheck, FleetDescription } from "./object-rpc.js";
import { runRelayAlarm } from "./relay-alarm.js";
import { type ObjectState, type Started, startMotebit } from "./start-motebit.js";

const UNKNOWN = { ok: false, status: 404, error: "not found" } as const;

export class FleetMotebit {
  constructor(private readonly o: ObjectState) {}

  /** Makes the key here and starts; the seed never leaves this object. */
  provision(spec: FleetSpec): Promise<FleetAnswer<FleetDescription> | { ok: false; status: 409; error: string }> {
    return this.o.ctx.blockConcurrencyWhile(async () => {
      if (this.o.profile !== null) return { ok: false as const, status: 409 as const, error: `${spec.name} already exists` };
      const profile = await provisionFleetProfile(this.o.sql, spec, new Date());
      const s = await startMotebit(this.o, profile);
      if (!s.ok) {
        await this.destroy();
        return { ok: false as const, status: 500 as const, error: s.error };
      }
      this.o.profile = profile;
      this.o.started = Promise.resolve(s);
      return { ok: true as const, value: describe(profile, s) };
    });
  }

  async caller(): Promise<FleetAnswer<FleetCaller>> {
    const s = await this.started();
    if (s === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    const config = s.backend.config();
    const auth = { staticTokens: config.staticTokens, knownCallers: config.knownCallers };
    return { ok: true, value: { motebitId: s.motebitId, publicKeyHex: s.publicKeyHex, auth, settingsTag: this.o.profile!.settingsTag } };
  }

  /**
   * One authenticated call. The Worker may have authenticated it against settings it kept: when they are not the
   * current ones (the operator changed them, or the name was retired and made again), the caller is decided again
   * here, against the current settings, before anything is touched.
   */
  async handleMcp(call: McpCall, check: FleetCheck): Promise<Response> {
    const s = await this.started();
    if (s === null || this.o.profile === null) return jsonResponse(404, { error: UNKNOWN.error });
    if (!s.ok) return startupFailureResponse(s.error);
    if (check.settingsTag !== this.o.profile.settingsTag) {
      const again = await authenticate(check.authorization, s.backend.config(), { motebitId: s.motebitId, publicKeyHex: s.publicKeyHex }, Date.now());
      if (!again.ok) return authRefusalResponse(again);
      call = { ...call, principal: again.principal, jti: again.jti };
    }
    return s.backend.handleMcp(call);
  }

  /** The relay loop's clock. A name retired, or never provisioned, has no motebit: nothing runs, and nothing starts. */
  async alarm(): Promise<void> {
    const s = await this.started();
    if (s !== null && s.ok && s.relay !== null) await runRelayAlarm(s.relay, this.o.ctx.storage);
  }

  /** This motebit's authorization server; a name nobody provisioned is 404 and starts nothing. */
  async handleOAuth(request: Request, urls: OAuthUrls, fleetName: string | null, source: string): Promise<Response> {
    const s = await this.started();
    if (s === null) return jsonResponse(404, { error: UNKNOWN.error });
    return s.ok ? s.backend.oauth.handle(request, urls, fleetName, source) : startupFailureResponse(s.error);
  }

  /** This motebit's transparency log; a name nobody provisioned is 404 and starts nothing. */
  async handleLog(query: LogQuery): Promise<Response> {
    const s = await this.started();
    if (s === null) return jsonResponse(404, { error: UNKNOWN.error });
    return s.ok ? s.backend.handleLog(query) : startupFailureResponse(s.error);
  }

  /** Its signed discovery documents and page facts on the Worker's trusted URLs; a name nobody provisioned is 404. */
  async discovery(urls: OAuthUrls, fleetName: string | null): Promise<DiscoveryAnswer> {
    const s = await this.started();
    if (s === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    return { ok: true, value: await s.backend.discovery(urls, fleetName) };
  }

  /** The operator's side of this motebit's OAuth clients (worker/fleet-oauth-api.ts): approvals this object signs. */
  async oauth(op: FleetOAuthOp): Promise<FleetOAuthAnswer | FleetAnswer<never>> {
    const s = await this.started();
    if (s === null || this.o.profile === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    return runFleetOAuthOp(s.backend.oauth, op);
  }

  async describe(): Promise<FleetAnswer<FleetDescription>> {
    const s = await this.started();
    if (s === null || this.o.profile === null) return UNKNOWN;
    if (!s.ok) return { ok: false, status: 500, error: s.error };
    return { ok: true, value: describe(this.o.profile, s) };
  }

  /** New callers, static token or tools: the motebit restarts over the same state with them. */
  update(patch: FleetSettingsPatch): Promise<FleetAnswer<FleetDescription>> {
    return this.o.ctx.blockConcurrencyWhile(async () => {
      if (this.o.profile === null) return UNKNOWN;
      const profile = updateFleetProfile(this.o.sql, this.o.profile, patch);
      this.o.profile = profile;
      const s = await startMotebit(this.o, profile);
      this.o.started = Promise.resolve(s);
      return s.ok ? { ok: true as const, value: describe(profile, s) } : { ok: false as const, status: 500 as const, error: s.error };
    });
  }

  /** Retires the motebit: key, state and alarm are gone. Its receipts still verify with the public key the operator kept. */
  retire(): Promise<FleetAnswer<{ name: string }>> {
    return this.o.ctx.blockConcurrencyWhile(async () => {
      if (this.o.profile === null) return UNKNOWN;
      const name = this.o.profile.name;
      await this.destroy();
      return { ok: true as const, value: { name } };
    });
  }

  private async started(): Promise<Started | null> {
    return this.o.profile === null ? null : this.o.started;
  }

  private async destroy(): Promise<void> {
    this.o.profile = null;
    this.o.started = null;
    // What still runs for the retired motebit ends now with a signed failed receipt, and writes nowhere.
    const retired = this.o.incarnation.retired;
    this.o.incarnation = { retired: new AbortController() };
    retired.abort(new HostStop("this motebit was retired"));
    this.o.retiredTasks.remember(this.o.sql);
    await this.o.ctx.storage.deleteAlarm();
    await this.o.ctx.storage.deleteAll();
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
    static_token: Object.keys(p.staticTokens).length > 0,
    static_tokens: Object.keys(p.staticTokens),
    created_at: p.createdAt,
  };
}
