// A fleet motebit's identity and callers as this isolate knows them. A name is looked up in the directory before
// its own object is ever touched, so a name nobody created never gets an object (not even an empty one). What the
// object answers is kept per isolate (bounded, for a minute), tagged: the object compares the tag on every call
// and decides the caller again itself when the settings have changed since, so a kept copy never grants more
// than the current settings do. Keeping it saves one billed Durable Object request per call.
import { BoundedCache, StartupError, UnknownMotebitError } from "../src/index.js";
import type { FleetAnswer, FleetCaller } from "../durable-objects/object-rpc.js";
import type { EdgeEnv } from "./env.js";
import { directoryStub, fleetStub } from "./fleet-objects.js";

const NAMES_KEPT = 10_000;
const KEPT_FOR_MS = 60_000;
/** null: the directory knows the name, its settings have not been fetched (or were dropped). */
const kept = new BoundedCache<{ caller: FleetCaller; at: number } | null>(NAMES_KEPT);

/** `fresh`: ask the object even when a copy is kept. `kept` in the answer says the copy was used. */
export async function fleetCaller(env: EdgeEnv, name: string, o: { fresh: boolean }): Promise<{ caller: FleetCaller; kept: boolean }> {
  const entry = kept.get(name);
  if (entry !== undefined && entry !== null && !o.fresh && Date.now() - entry.at < KEPT_FOR_MS) return { caller: entry.caller, kept: true };
  if (entry === undefined) {
    const listed = await directoryStub(env).directoryGet(name);
    if (listed === null || listed.status !== "ready") throw new UnknownMotebitError(name);
  }
  const a = (await fleetStub(env, name).fleetCaller()) as FleetAnswer<FleetCaller>;
  if (!a.ok) {
    if (a.status === 404) {
      kept.delete(name);
      throw new UnknownMotebitError(name);
    }
    throw new StartupError(a.error);
  }
  kept.set(name, { caller: a.value, at: Date.now() });
  return { caller: a.value, kept: false };
}

/** The name is ready in the directory (a CORS preflight asks only this). */
export async function isProvisioned(env: EdgeEnv, name: string): Promise<boolean> {
  if (kept.get(name) !== undefined) return true;
  const listed = await directoryStub(env).directoryGet(name);
  if (listed === null || listed.status !== "ready") return false;
  kept.set(name, null);
  return true;
}

export function forgetCaller(name: string): void {
  kept.delete(name);
}
