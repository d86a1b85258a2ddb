// Defence in depth: the index only proposes candidates; recall re-checks every one against its row.
// The stand-in index below ignores the scope/sensitivity filter and never applies deletions, and returns
// every id it was ever given with a high score: a Vectorize index whose metadata indexes are missing
// or stale, or that missed a delete. Recall must still hold back other scopes, excluded sensitivities
// and forgotten nodes on the strength of the rows alone.
import { afterEach, describe, expect, it } from "vitest";
import { memorySql } from "../helpers/sqlite.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { MemoryStore } from "../../../src/memory/store.js";
import type { LocalSql } from "../../../local-stdio/src/sqlite-port.js";
import type { Clock, VectorFilter, VectorIndex, VectorMatch } from "../../../src/ports.js";

class FilterBlindIndex implements VectorIndex {
  readonly id = "filter-blind";
  private readonly ids = new Set<string>();
  /** The filter of each query, as the store passed it (and this index ignored it). */
  readonly filters: (VectorFilter | undefined)[] = [];
  /** The ids of the last query's answer. */
  lastAnswer: string[] = [];
  readonly deleteCalls: string[][] = [];

  async upsert(items: { id: string }[]): Promise<void> {
    for (const i of items) this.ids.add(i.id);
  }

  async delete(ids: string[]): Promise<void> {
    // Stale: acknowledges the deletion and keeps serving the ids.
    this.deleteCalls.push([...ids]);
  }

  async query(_vector: Float32Array, topK: number, filter?: VectorFilter): Promise<VectorMatch[]> {
    this.filters.push(filter);
    this.lastAnswer = [...this.ids].slice(0, topK);
    return this.lastAnswer.map((id) => ({ id, score: 0.99 }));
  }
}

const clock: Clock = { now: () => Date.UTC(2026, 0, 1) };
const QUERY = "project falcon note";

const opened: LocalSql[] = [];
afterEach(() => {
  for (const sql of opened.splice(0)) sql.close();
});

async function setUp() {
  const sql = memorySql();
  opened.push(sql);
  const index = new FilterBlindIndex();
  const store = new MemoryStore({ sql, embedder: new LocalEmbedder(), index, clock });
  store.migrate();
  const remember = async (scope: string, sensitivity: "none" | "personal" | "medical" | "secret", what: string) =>
    (
      await store.remember({
        content: `project falcon note: ${what}`,
        sensitivity,
        provenance: scope === "owner" ? "owner" : "peer_agent",
        scope,
        sourceId: scope === "owner" ? null : scope.slice("peer:".length),
      })
    ).node_id;
  const ids = {
    ownerNone: await remember("owner", "none", "the owner's plain note"),
    ownerPersonal: await remember("owner", "personal", "the owner's personal note"),
    ownerMedical: await remember("owner", "medical", "the owner's medical note"),
    ownerSecret: await remember("owner", "secret", "the owner's secret note"),
    alice: await remember("peer:alice", "none", "alice's note"),
    bob: await remember("peer:bob", "none", "bob's note"),
  };
  return { store, index, ids, all: Object.values(ids) };
}

const idsOf = (hits: { node_id: string }[]) => new Set(hits.map((h) => h.node_id));

describe("recall re-checks what the index proposes", () => {
  it("the stand-in really ignores the filter: it proposes every stored id whatever it is asked", async () => {
    const { store, index, all } = await setUp();
    await store.recall({ query: QUERY, scopes: ["peer:alice"], excludeSensitivities: ["secret"] });
    // The store asked for a filtered search (the first layer) ...
    expect(index.filters.at(-1)).toEqual({ scopes: ["peer:alice"], sensitivities: ["none", "personal", "medical", "financial"] });
    // ... and got back everything, other scopes and the excluded sensitivity included.
    expect(new Set(index.lastAnswer)).toEqual(new Set(all));
  });

  it("holds back other scopes: a peer gets its own memory only, the owner never a peer's", async () => {
    const { store, index, ids, all } = await setUp();

    const alice = await store.recall({ query: QUERY, scopes: ["peer:alice"] });
    expect(new Set(index.lastAnswer)).toEqual(new Set(all));
    expect(idsOf(alice)).toEqual(new Set([ids.alice]));
    expect(alice[0]).toMatchObject({ provenance: "peer_agent", content: "project falcon note: alice's note" });

    const bob = await store.recall({ query: QUERY, scopes: ["peer:bob"] });
    expect(idsOf(bob)).toEqual(new Set([ids.bob]));

    const owner = await store.recall({ query: QUERY, scopes: ["owner"] });
    expect(idsOf(owner)).toEqual(new Set([ids.ownerNone, ids.ownerPersonal, ids.ownerMedical, ids.ownerSecret]));
    expect(owner.every((h) => h.provenance === "owner")).toBe(true);

    // A scope that holds nothing gets nothing, though the index proposed six memories.
    expect(await store.recall({ query: QUERY, scopes: ["peer:carol"] })).toEqual([]);
    expect(index.lastAnswer).toHaveLength(all.length);
  });

  it("holds back excluded sensitivities", async () => {
    const { store, index, ids, all } = await setUp();
    const hits = await store.recall({ query: QUERY, scopes: ["owner"], excludeSensitivities: ["medical", "secret"] });
    expect(new Set(index.lastAnswer)).toEqual(new Set(all));
    expect(idsOf(hits)).toEqual(new Set([ids.ownerNone, ids.ownerPersonal]));
    expect(hits.map((h) => h.sensitivity).sort()).toEqual(["none", "personal"]);

    const plainOnly = await store.recall({ query: QUERY, scopes: ["owner"], excludeSensitivities: ["personal", "medical", "financial", "secret"] });
    expect(idsOf(plainOnly)).toEqual(new Set([ids.ownerNone]));
  });

  it("holds back forgotten nodes the index still serves", async () => {
    const { store, index, ids, all } = await setUp();
    expect(await store.forget(ids.ownerSecret)).toBe(true);
    expect(await store.forget(ids.alice)).toBe(true);
    // The store told the index; the index kept the ids anyway.
    expect(index.deleteCalls.flat()).toEqual(expect.arrayContaining([ids.ownerSecret, ids.alice]));

    const owner = await store.recall({ query: QUERY, scopes: ["owner"] });
    expect(new Set(index.lastAnswer)).toEqual(new Set(all));
    expect(idsOf(owner)).toEqual(new Set([ids.ownerNone, ids.ownerPersonal, ids.ownerMedical]));

    expect(await store.recall({ query: QUERY, scopes: ["peer:alice"] })).toEqual([]);
    expect(new Set(index.lastAnswer)).toEqual(new Set(all));
  });
});
