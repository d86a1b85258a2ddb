// A test-only Durable Object: the memory store over the object's real SQLite (ctx.storage.sql), so the
// embedded path is tested where it runs in production, restarts included. Not the product's object.
import { DurableObject } from "cloudflare:workers";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { MemoryStore, type MemoryStoreOptions } from "../../../src/memory/store.js";
import type { SqlPort } from "../../../src/ports.js";
// The edge's own SqlPort over ctx.storage.sql (not its Durable Object, which these tests do not depend on).
import { durableSqlPort } from "../../../durable-objects/sql-port.js";

export class MemoryTestObject extends DurableObject {
  readonly sql: SqlPort;
  /** Differs between instances: lets a test prove the object really restarted. */
  readonly instanceId = crypto.randomUUID();
  private cached: MemoryStore | null = null;
  /** The clock tests move: starts at real time, advanced explicitly. */
  readonly clock = { t: Date.now(), now() { return this.t; } };

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    this.sql = durableSqlPort(ctx.storage);
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
