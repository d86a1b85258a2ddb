// A test-only Durable Object: the memory store over the object's real SQLite (ctx.storage.sql), so the
// embedded path is tested where it runs in production, restarts included. Not the product's object.
import { DurableObject } from "cloudflare:workers";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { MemoryStore, type MemoryStoreOptions } from "../../../src/memory/store.js";
import type { SqlPort, SqlValue } from "../../../src/ports.js";

/** The SqlPort over ctx.storage.sql. BLOB parameters go in as ArrayBuffers, the one binary type it binds. */
export function durableObjectSql(storage: DurableObjectStorage): SqlPort {
  const bind = (p: SqlValue[]) =>
    p.map((v) => (v instanceof Uint8Array ? v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) : v));
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return storage.sql.exec(query, ...bind(params)).toArray() as T[];
    },
    run(query: string, ...params: SqlValue[]) {
      // rowsWritten also counts index rows, so it is an upper bound on changed rows (0 still means none).
      return { changes: storage.sql.exec(query, ...bind(params)).rowsWritten };
    },
    transaction<T>(fn: () => T): T {
      return storage.transactionSync(fn);
    },
  };
}

export class MemoryTestObject extends DurableObject {
  readonly sql: SqlPort;
  /** Differs between instances: lets a test prove the object really restarted. */
  readonly instanceId = crypto.randomUUID();
  private cached: MemoryStore | null = null;
  /** The clock tests move: starts at real time, advanced explicitly. */
  readonly clock = { t: Date.now(), now() { return this.t; } };

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.sql = durableObjectSql(ctx.storage);
  }

  /** The object's store with the offline defaults, created once per object instance (like the product's). */
  get store(): MemoryStore {
    if (!this.cached) {
      this.cached = new MemoryStore({ sql: this.sql, embedder: new LocalEmbedder(), index: "embedded", clock: this.clock });
      this.cached.migrate();
    }
    return this.cached;
  }

  /** A store with other backends (the scale path) over the same rows. */
  storeWith(o: Pick<MemoryStoreOptions, "embedder" | "index"> & Partial<MemoryStoreOptions>): MemoryStore {
    const store = new MemoryStore({ sql: this.sql, clock: this.clock, ...o });
    store.migrate();
    return store;
  }
}
