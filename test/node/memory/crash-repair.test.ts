// The index is derived from rows: a crash between the row write and the index write, or an index that
// is down, never loses an acknowledged memory — the next store (or the next recall) repairs the index.
import { describe, expect, it } from "vitest";
import { memorySql } from "../helpers/sqlite.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { VectorizeIndex } from "../../../src/memory/index-vectorize.js";
import { MemoryStore } from "../../../src/memory/store.js";
import { vectorToBlob } from "../../../src/memory/vector-bytes.js";
import type { VectorIndex } from "../../../src/ports.js";
import { SimVectorize } from "../../doubles/vectorize-sim.js";
import { ManualClock, makeStore } from "./fixtures.js";

/** Wraps an index so a test can make it fail. */
class FlakyIndex implements VectorIndex {
  readonly id: string;
  down = false;
  constructor(private readonly inner: VectorIndex & { id: string }) {
    this.id = inner.id;
  }
  upsert(items: Parameters<VectorIndex["upsert"]>[0]) {
    return this.down ? Promise.reject(new Error("index unavailable")) : this.inner.upsert(items);
  }
  delete(ids: string[]) {
    return this.down ? Promise.reject(new Error("index unavailable")) : this.inner.delete(ids);
  }
  query(...a: Parameters<VectorIndex["query"]>) {
    return this.down ? Promise.reject(new Error("index unavailable")) : this.inner.query(...a);
  }
}

describe("crash between row write and index write", () => {
  it("a row written with indexed = 0 and never indexed is found by a new store (embedded index)", async () => {
    const sql = memorySql();
    const clock = new ManualClock();
    const before = makeStore({ sql, clock });
    // Simulate the crash: the row (with its vector) landed, the index step never ran.
    const e = new LocalEmbedder();
    sql.run(
      `INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
         created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed)
       VALUES ('crashed-1', 'The staging database lives in eu-west', 'none', 'owner', NULL, 'owner', 'semantic', 0.9, 7, ?, ?, NULL, ?, ?, 0)`,
      clock.now(), clock.now(), vectorToBlob(e.embedOne("The staging database lives in eu-west")), e.id,
    );
    // And one that crashed before even its vector was stored.
    sql.run(
      `INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
         created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed)
       VALUES ('crashed-2', 'Backups run at 03:00 UTC', 'none', 'owner', NULL, 'owner', 'semantic', 0.9, 7, ?, ?, NULL, NULL, NULL, 0)`,
      clock.now(), clock.now(),
    );
    void before;

    const after = makeStore({ sql, clock });
    expect((await after.recall({ query: "where is the staging database", scopes: ["owner"] }))[0]?.node_id).toBe("crashed-1");
    expect((await after.recall({ query: "when do backups run", scopes: ["owner"] }))[0]?.node_id).toBe("crashed-2");
    expect(sql.all(`SELECT id FROM memory_nodes WHERE indexed = 0`)).toEqual([]);
  });

  it("a crashed row is re-upserted into Vectorize by the next store", async () => {
    const sql = memorySql();
    const clock = new ManualClock();
    const vectorize = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const index = () => new VectorizeIndex({ binding: vectorize, namespace: "motebit-a" });
    const e = new LocalEmbedder();
    makeStore({ sql, clock, index: index() });
    sql.run(
      `INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
         created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed)
       VALUES ('crashed', 'The on-call rotation changes on Mondays', 'none', 'owner', NULL, 'owner', 'semantic', 0.9, 7, ?, ?, NULL, ?, ?, 0)`,
      clock.now(), clock.now(), vectorToBlob(e.embedOne("The on-call rotation changes on Mondays")), e.id,
    );
    expect(vectorize.snapshot()).toEqual([]);

    const after = makeStore({ sql, clock, index: index() });
    const hits = await after.recall({ query: "on-call rotation", scopes: ["owner"] });
    expect(hits.map((h) => h.node_id)).toEqual(["crashed"]);
    expect(vectorize.snapshot()).toEqual([{ id: "crashed", namespace: "motebit-a", metadata: { scope: "owner", sensitivity: "none" } }]);
  });
});

describe("index outage", () => {
  it("acknowledges the write, then indexes it on the first recall after the index is back", async () => {
    const vectorize = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const flaky = new FlakyIndex(new VectorizeIndex({ binding: vectorize, namespace: "m" }));
    const store = makeStore({ index: flaky });
    flaky.down = true;
    const { node_id } = await store.remember({ content: "The VPN config is in the team vault", sensitivity: "none", provenance: "owner", scope: "owner" });
    expect(store.count()).toBe(1);
    await expect(store.recall({ query: "VPN config", scopes: ["owner"] })).rejects.toThrow(/index unavailable/);
    flaky.down = false;
    expect((await store.recall({ query: "VPN config", scopes: ["owner"] }))[0].node_id).toBe(node_id);
  });

  it("keeps an owed deletion until the index accepts it", async () => {
    const vectorize = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const flaky = new FlakyIndex(new VectorizeIndex({ binding: vectorize, namespace: "m" }));
    const store = makeStore({ index: flaky });
    const { node_id } = await store.remember({ content: "Temporary door code 4411", sensitivity: "none", provenance: "owner", scope: "owner" });
    flaky.down = true;
    expect(await store.forget(node_id)).toBe(true);
    expect(vectorize.snapshot().map((v) => v.id)).toEqual([node_id]);
    flaky.down = false;
    await store.repairIndex();
    expect(vectorize.snapshot()).toEqual([]);
  });
});

describe("index or embedder change", () => {
  it("re-embeds and re-indexes every row when the embedder changes", async () => {
    const sql = memorySql();
    const clock = new ManualClock();
    const old = makeStore({ sql, clock, embedder: new LocalEmbedder({ dimensions: 128 }) });
    const { node_id } = await old.remember({ content: "Invoices are due on the 5th", sensitivity: "none", provenance: "owner", scope: "owner" });

    const next = new MemoryStore({ sql, clock, embedder: new LocalEmbedder({ dimensions: 512 }), index: "embedded" });
    next.migrate();
    const hits = await next.recall({ query: "when are invoices due", scopes: ["owner"] });
    expect(hits[0].node_id).toBe(node_id);
    expect(sql.all(`SELECT embedder_id, length(embedding) AS bytes, indexed FROM memory_nodes`)).toEqual([
      { embedder_id: "local-ngram-v1-512", bytes: 512 * 4, indexed: 1 },
    ]);
  });
});
