// Starting a motebit in its Durable Object: the deployment's own (settings from env) or a fleet motebit (its
// fleet_profile row over the deployment's settings). A failure is an answer the object gives every caller, never a
// crash loop.
import {
  asFleetMotebit, createHostMotebit, type FleetProfile, InProcessBackend, provideWordTable, readHostSettings, type RelayLoop,
  type SqlPort, systemClock, type ToolRegistry,
} from "../src/index.js";
import { fencedSqlPort } from "./sql-port.js";
import type { RetiredMcpTasks } from "./retired-mcp-tasks.js";
import { edgeMemory } from "./edge-ai.js";
import { edgeWordTable } from "./word-table.js";
import type { ObjectEnv } from "./object-env.js";
import { startEdgeRelay } from "./relay-alarm.js";
import { edgeOtelSettings, startEdgeTelemetry } from "./edge-telemetry.js";

export type Started = { ok: true; backend: InProcessBackend; relay: RelayLoop | null; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

/** What the object's roles share: its storage, its env, and the motebit it runs (null until started). */
export interface ObjectState {
  readonly ctx: DurableObjectState;
  readonly env: ObjectEnv;
  readonly sql: SqlPort;
  /** The deployment's served tools (a fleet motebit serves the subset its profile names). */
  readonly tools: ToolRegistry;
  /** Set once this object is a provisioned fleet motebit; null for the default motebit, the directory, and unknown names. */
  profile: FleetProfile | null;
  started: Promise<Started> | null;
  /**
   * This object's task runs hold their leases under one id across restarts in place (fleet PATCH), so a new start
   * leaves the running tasks of the last one to finish; a new object (after eviction) is the only one alive.
   */
  readonly leaseOwner: string;
  /** One per fleet incarnation: retiring ends it, so the retired motebit's runs are fenced off its successor. */
  incarnation: { retired: AbortController };
  /** The tasks of this name's retired incarnations, so polling one is answered with why it is gone. */
  readonly retiredTasks: RetiredMcpTasks;
}

export async function startMotebit(o: ObjectState, profile: FleetProfile | null): Promise<Started> {
  try {
    provideWordTable(edgeWordTable);
    const env = o.env;
    const settings = readHostSettings({ env, fleet: profile }, { host: "edge", hasAiBinding: env.AI !== undefined });
    const config = settings.server;
    const incarnation = o.incarnation;
    const current = () => o.incarnation === incarnation;
    // A fleet motebit's state is fenced to its incarnation, and its callers' standing is read from the current
    // profile (a PATCH reaches runs already going; retirement ends them). The default motebit is never retired.
    const sql = profile === null ? o.sql : fencedSqlPort(o.sql, current);
    const currentSettings = profile === null ? undefined : () => (current() && o.profile !== null ? asFleetMotebit(settings, o.profile).server : null);
    const ai = settings.ai;
    const log = (line: string) => console.log(profile === null ? line : `[${profile.name}] ${line}`);
    const llm = ai.mode === "ai" ? (await import("./edge-llm.js")).edgeLlm(env, ai) : null;
    const otel = edgeOtelSettings(env);
    const telemetry = otel === null ? null : await startEdgeTelemetry(otel, (p) => o.ctx.waitUntil(p));
    const motebit = await createHostMotebit({
      sql,
      currentSettings,
      clock: systemClock,
      // A fleet motebit's key was made in this object at provisioning; the deployment's key is never its key.
      secrets: settings.identity,
      config,
      tools: profile?.tools ? o.tools.only(profile.tools) : o.tools,
      memoryFor: (motebitId) => edgeMemory(env, ai, motebitId),
      llm,
      taskTimeoutMs: ai.taskTimeoutMs,
      telemetry: telemetry?.port,
      log,
    });
    log(`motebit ${motebit.motebitId} started; mode: ${ai.mode}${llm ? `; provider: ${llm.provider}; model: ${llm.modelName}` : ""}; embedder: ${motebit.memory.embedder.id}`);
    const relay = await startEdgeRelay({ settings: settings.relay, sql, storage: o.ctx.storage, motebit, log, fleetName: profile?.name });
    const backend = new InProcessBackend({
      config,
      sql,
      clock: systemClock,
      motebit,
      taskLeases: { owner: o.leaseOwner, sole: true },
      stopped: incarnation.retired.signal,
      retiredTask: profile === null ? undefined : (caller, taskId) => o.retiredTasks.has(caller, taskId),
    });
    return { ok: true, backend, relay, motebitId: motebit.motebitId, publicKeyHex: motebit.publicKeyHex };
  } catch (e) {
    const error = (e as Error)?.message ?? String(e);
    console.error(`motebit cannot start: ${error}`);
    return { ok: false, error };
  }
}

/** Start-up under blockConcurrencyWhile: no request runs before it has finished (or failed). */
export function startBlocking(o: ObjectState, profile: FleetProfile | null): Promise<Started> {
  return o.ctx.blockConcurrencyWhile(() => startMotebit(o, profile));
}
