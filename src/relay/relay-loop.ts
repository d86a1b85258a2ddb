// One motebit's life on a relay, host-neutral: each tick does what the liveness plan says is due (bootstrap +
// register, or heartbeat), records it, logs failures with the status and a hint, runs the self-test once after
// a registration when asked, and says when to wake next. motebit-local drives it with a timer, the edge with a
// Durable Object alarm; the state lives in a store (memory locally, the object's SQLite at the edge).
import type { Motebit } from "../motebit.js";
import type { Clock, RelayStatus, SqlPort } from "../ports.js";
import { registerBody, type Endpoint } from "./announcement.js";
import { RelayClient, type FetchPort, type RegisterBody, type RelayAuth } from "./client.js";
import { INITIAL_LIVENESS, plan, record, timingsFor, type AttemptResult, type LivenessAction, type LivenessState, type LivenessTimings } from "./liveness.js";
import { runSelfTest, selfTestLine, type SelfTestReport } from "./self-test.js";
import { selfTestTask, type SelfTestTask } from "./self-test-task.js";
import { relayTaskLookup } from "./task-lookup.js";
import type { RelaySettings } from "../settings/relay.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export interface RelayState {
  liveness: LivenessState;
  /** The registration fingerprint the self-test last ran for (it runs once per registration shape). */
  selfTestFor: string | null;
  /** The last self-test outcome line, for motebit://state. */
  selfTestLine: string | null;
}

export interface RelayStateStore {
  load(): RelayState;
  save(s: RelayState): void;
}

const INITIAL_STATE: RelayState = { liveness: INITIAL_LIVENESS, selfTestFor: null, selfTestLine: null };

export function memoryRelayStore(): RelayStateStore {
  let s = INITIAL_STATE;
  return { load: () => s, save: (next) => void (s = next) };
}

const RELAY_STATE_SCHEMA: StoreSchema = {
  store: "relay_state",
  steps: [(sql) => void sql.run("CREATE TABLE IF NOT EXISTS relay_state (id INTEGER PRIMARY KEY CHECK (id = 1), state TEXT NOT NULL)")],
};

/** One row in the host's SQLite, so an evicted Durable Object wakes knowing when it last heartbeat. */
export function sqlRelayStore(sql: SqlPort): RelayStateStore {
  migrate(sql, RELAY_STATE_SCHEMA);
  return {
    load() {
      const row = sql.all<{ state: string }>("SELECT state FROM relay_state WHERE id = 1")[0];
      if (!row) return INITIAL_STATE;
      try {
        return { ...INITIAL_STATE, ...(JSON.parse(row.state) as Partial<RelayState>) };
      } catch {
        return INITIAL_STATE;
      }
    },
    save(s) {
      sql.run("INSERT INTO relay_state (id, state) VALUES (1, ?) ON CONFLICT(id) DO UPDATE SET state = excluded.state", JSON.stringify(s));
    },
  };
}

export interface RelayLoopOptions {
  client: RelayClient;
  /** What we register; null when this host cannot register (endpointProblem says why). */
  body: RegisterBody | null;
  endpointProblem?: string;
  motebitId: string;
  deviceId: string;
  clock: Clock;
  heartbeatMs: number;
  store: RelayStateStore;
  log: (line: string) => void;
  selfTest: { timeoutMs: number; task: SelfTestTask | null } | null;
}

export class RelayLoop {
  private readonly o: RelayLoopOptions;
  private readonly t: LivenessTimings;
  private readonly fingerprint: string;
  /** Only the first registration of this run is announced, and any after a failure or a change. */
  private announced = false;
  private stopped = false;
  /** A forwarded task's record at the relay, for motebit_task (the host hands it to the motebit). */
  readonly lookupTask: ReturnType<typeof relayTaskLookup>;

  constructor(o: RelayLoopOptions) {
    this.o = o;
    this.lookupTask = relayTaskLookup(o.client, o.motebitId);
    this.t = timingsFor(o.heartbeatMs);
    this.fingerprint = o.body === null ? "" : JSON.stringify([o.client.syncUrl, o.body]);
  }

  status(): RelayStatus {
    const s = this.o.store.load();
    return {
      sync_url: this.o.client.syncUrl,
      endpoint_url: this.o.body?.endpoint_url ?? null,
      registered: s.liveness.registeredFingerprint === this.fingerprint && s.liveness.failures === 0 && s.liveness.lastSuccessAt !== null,
      last_success_at: s.liveness.lastSuccessAt,
      self_test: s.selfTestLine,
    };
  }

  /** Epoch ms of the next due action (null: nothing will ever be due, e.g. no endpoint, or stopped). */
  nextWake(): number | null {
    if (this.o.body === null || this.stopped) return null;
    return plan(this.o.store.load().liveness, this.fingerprint, this.o.clock.now(), this.t).at;
  }

  /**
   * Does whatever is due now (nothing if nothing is), then returns when to wake next. Never throws.
   * The first tick of a host that cannot register logs why, once, and reports a requested self-test as failed.
   */
  async tick(): Promise<number | null> {
    try {
      return await this.step();
    } catch (e) {
      // Nothing here should throw; if something does, the host's timer or alarm must keep going.
      this.o.log(`motebit: relay: unexpected error: ${(e as Error)?.message ?? String(e)}`);
      return this.stopped ? null : this.o.clock.now() + this.t.heartbeatMs;
    }
  }

  private async step(): Promise<number | null> {
    if (this.stopped) return null;
    if (this.o.body === null) {
      if (!this.announced) {
        this.announced = true;
        this.o.log(`motebit: relay: ${this.o.endpointProblem ?? "no endpoint to register"}`);
        if (this.o.selfTest && this.o.store.load().selfTestFor !== this.fingerprint) this.report({ outcome: "failed", why: "this motebit cannot register", next: this.o.endpointProblem ?? "set publicUrl" });
      }
      return null;
    }
    const now = this.o.clock.now();
    const p = plan(this.o.store.load().liveness, this.fingerprint, now, this.t);
    if (p.at > now) return p.at;
    const { result, error, hint } = await this.attempt(p.action, this.o.body);
    if (this.stopped) return null;
    const before = this.o.store.load();
    const after = record(before.liveness, p.action, result, this.fingerprint, this.o.clock.now());
    this.o.store.save({ ...before, liveness: after });
    this.logOutcome(p.action, result, `${error}: ${hint}`, before.liveness, after);
    // Exactly one outcome per registration shape: the self-test after it registered, or why it could not.
    if (this.o.selfTest && p.action === "register" && this.o.store.load().selfTestFor !== this.fingerprint) {
      if (result === "ok") await this.selfTest(this.o.body);
      else this.report({ outcome: "failed", why: `registration with ${this.o.client.syncUrl} failed: ${error}`, next: hint });
    }
    return this.nextWake();
  }

  /** Best effort within timeoutMs; the loop does nothing afterwards. */
  async stop(timeoutMs: number): Promise<void> {
    this.stopped = true;
    if (this.o.body === null || this.o.store.load().liveness.lastRegisterAt === null) return;
    const r = await this.o.client.deregister(this.o.body.motebit_id, timeoutMs);
    this.o.log(r.ok ? `motebit: relay: deregistered from ${this.o.client.syncUrl}` : `motebit: relay: deregister failed: ${r.error}: ${r.hint}`);
  }

  private async attempt(action: LivenessAction, body: RegisterBody): Promise<Attempt> {
    const c = this.o.client;
    if (action === "heartbeat") {
      const r = await c.heartbeat(body.motebit_id);
      if (r.ok) return OK;
      return { result: r.status === 404 || r.status === 410 ? "unknown_to_relay" : "failed", error: `heartbeat: ${r.error}`, hint: r.hint };
    }
    // Also under an API token: the relay must know our key to accept the signed deregistration.
    const b = await c.bootstrap({ motebit_id: body.motebit_id, device_id: this.o.deviceId, public_key: body.public_key });
    if (!b.ok) return { result: "failed", error: `bootstrap: ${b.error}`, hint: b.hint };
    const r = await c.register(body);
    return r.ok ? OK : { result: "failed", error: `register: ${r.error}`, hint: r.hint };
  }

  private logOutcome(action: LivenessAction, result: AttemptResult, error: string, before: LivenessState, after: LivenessState): void {
    const url = this.o.client.syncUrl;
    if (result === "failed") {
      const wait = Math.max(0, (this.nextWake() ?? 0) - this.o.clock.now());
      this.o.log(`motebit: relay: ${error} (retry in ${formatMs(wait)})`);
      return;
    }
    if (result === "unknown_to_relay") {
      this.o.log(`motebit: relay: ${error}`);
      return;
    }
    const recovered = before.failures > 0 ? ` (after ${before.failures} failed attempt${before.failures === 1 ? "" : "s"})` : "";
    if (action === "register" && (!this.announced || recovered || before.registeredFingerprint !== after.registeredFingerprint)) {
      this.announced = true;
      const b = this.o.body!;
      this.o.log(`motebit: relay: registered with ${url} as ${b.endpoint_url} (capabilities: ${b.capabilities.join(", ") || "none"})${recovered}`);
    } else if (recovered) {
      this.o.log(`motebit: relay: ${url} answers again${recovered}`);
    }
  }

  private async selfTest(body: RegisterBody): Promise<void> {
    const report = await runSelfTest({
      client: this.o.client,
      motebitId: body.motebit_id,
      publicKeyHex: body.public_key,
      endpointUrl: body.endpoint_url,
      task: this.o.selfTest!.task,
      timeoutMs: this.o.selfTest!.timeoutMs,
      clock: this.o.clock,
    });
    this.report(report);
  }

  /** One line, logged and kept for motebit://state; this registration shape counts as tested. */
  private report(r: SelfTestReport): void {
    const line = selfTestLine(r);
    this.o.log(line);
    this.o.store.save({ ...this.o.store.load(), selfTestLine: line, selfTestFor: this.fingerprint });
  }
}

interface Attempt {
  result: AttemptResult;
  error: string;
  hint: string;
}

const OK: Attempt = { result: "ok", error: "", hint: "" };

function formatMs(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

/** The loop for a started motebit: its announcement, its auth towards the relay (apiToken, else its own key). */
export function relayLoopFor(o: {
  motebit: Pick<Motebit, "motebitId" | "publicKeyHex" | "did" | "type" | "registry" | "identityDoc" | "signer" | "deviceId" | "governance">;
  settings: RelaySettings;
  syncUrl: string;
  endpoint: Endpoint;
  fetch: FetchPort;
  clock: Clock;
  store: RelayStateStore;
  log: (line: string) => void;
  selfTest: boolean;
}): RelayLoop {
  const m = o.motebit;
  const auth: RelayAuth = { apiToken: o.settings.apiToken, signer: m.signer, motebitId: m.motebitId, deviceId: m.deviceId };
  const client = new RelayClient({ syncUrl: o.syncUrl, fetch: o.fetch, clock: o.clock, auth });
  return new RelayLoop({
    client,
    body: o.endpoint.url === null ? null : registerBody(m, o.endpoint.url),
    endpointProblem: o.endpoint.url === null ? o.endpoint.why : undefined,
    motebitId: m.motebitId,
    deviceId: m.deviceId,
    clock: o.clock,
    heartbeatMs: o.settings.heartbeatMs,
    store: o.store,
    log: o.log,
    selfTest: o.selfTest ? { timeoutMs: o.settings.selfTestTimeoutMs, task: selfTestTask(m) } : null,
  });
}
