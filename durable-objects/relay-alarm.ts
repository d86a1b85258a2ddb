// The relay loop at the edge: the Durable Object's alarm is its clock. On start the object schedules the next
// due step (registration, right away, on a fresh deployment); each alarm runs one tick and schedules the next.
// The liveness state is a row in the object's SQLite, so an evicted object wakes knowing when it last
// heartbeat. A cron trigger (wrangler.toml) wakes the object, so a fresh deployment registers without a request.
import {
  fleetMotebitUrl, type Motebit, type RelayLoop, relayLoopFor, type RelaySettings, resolveEndpoint, type SqlPort,
  sqlRelayStore, systemClock,
} from "../src/index.js";

/** Builds the loop when MOTEBIT_SYNC_URL is set (null otherwise) and schedules its first step. */
export async function startEdgeRelay(o: {
  /** The motebit's own: a fleet motebit's carry no relay API token (src/settings/host-settings.ts). */
  settings: RelaySettings;
  sql: SqlPort;
  storage: DurableObjectStorage;
  motebit: Motebit;
  log: (line: string) => void;
  /** A fleet motebit's name: it registers `<public url>/m/<name>` instead of the Worker's own URL, with its own key. */
  fleetName?: string;
}): Promise<RelayLoop | null> {
  const settings = o.settings;
  if (settings.syncUrl === null) return null;
  const loop = relayLoopFor({
    motebit: o.motebit,
    settings,
    syncUrl: settings.syncUrl,
    endpoint: resolveEndpoint(settings.publicUrl !== null && o.fleetName !== undefined ? fleetMotebitUrl(settings.publicUrl, o.fleetName) : settings.publicUrl, { kind: "edge" }),
    fetch: (input, init) => fetch(input, init),
    clock: systemClock,
    store: sqlRelayStore(o.sql),
    log: o.log,
    selfTest: settings.selfTest,
  });
  o.motebit.relayStatus = () => loop.status();
  o.motebit.relayTaskLookup = loop.lookupTask;
  const at = loop.nextWake();
  // No endpoint: nothing will ever be due; one tick logs why (once per start, not per request).
  if (at === null) await loop.tick();
  else await scheduleAt(o.storage, at);
  return loop;
}

/** One alarm: the due step, then the next alarm. A throw would make the platform retry; the loop never throws. */
export async function runRelayAlarm(loop: RelayLoop, storage: DurableObjectStorage): Promise<void> {
  const next = await loop.tick();
  if (next !== null) await storage.setAlarm(next);
}

/** Moves the alarm earlier when needed, never later (an alarm already due stays due). */
async function scheduleAt(storage: DurableObjectStorage, at: number): Promise<void> {
  const current = await storage.getAlarm();
  if (current === null || current > at) await storage.setAlarm(at);
}
