// Shared set-up for the memory tests: a store over in-memory SQLite with a clock the test moves.
import { memorySql } from "../helpers/sqlite.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { MemoryStore, type MemoryStoreOptions } from "../../../src/memory/store.js";
import type { Clock } from "../../../src/ports.js";

export const DAY = 86_400_000;
export const T0 = Date.UTC(2026, 0, 1);

export class ManualClock implements Clock {
  constructor(public t = T0) {}
  now(): number {
    return this.t;
  }
  advance(ms: number): void {
    this.t += ms;
  }
}

export function makeStore(o: Partial<MemoryStoreOptions> = {}): MemoryStore & { clock: ManualClock } {
  const clock = (o.clock as ManualClock | undefined) ?? new ManualClock();
  const store = new MemoryStore({ sql: o.sql ?? memorySql(), embedder: o.embedder ?? new LocalEmbedder(), index: o.index ?? "embedded", ...o, clock });
  store.migrate();
  return Object.assign(store, { clock });
}

export const OWNER = { scopes: ["owner"] };
