// Whether a fleet name is provisioned, asked of the directory before a request may touch the name's own object,
// so a name nobody created never gets an object at all (not even an empty one). A "yes" is remembered per isolate
// (bounded), which keeps the directory off the hot path; a retired motebit's object answers 404 itself, so a
// remembered "yes" that has gone stale grants nothing.
import { BoundedCache } from "../src/protocol/bounded-cache.js";
import type { EdgeEnv } from "./env.js";
import { directoryStub } from "./fleet-objects.js";

const PRESENT_NAMES_KEPT = 10_000;
const present = new BoundedCache<true>(PRESENT_NAMES_KEPT);

export async function isProvisioned(env: EdgeEnv, name: string): Promise<boolean> {
  if (present.get(name)) return true;
  const entry = await directoryStub(env).directoryGet(name);
  if (entry === null || entry.status !== "ready") return false;
  present.set(name, true);
  return true;
}

export function forgetProvisioned(name: string): void {
  present.delete(name);
}
