// Recall serves exactly the scopes and sensitivities it is given, with either index behind it.
import { describe, expect, it } from "vitest";
import { VectorizeIndex } from "../../../src/memory/index-vectorize.js";
import { SENSITIVITIES } from "../../../src/memory/sensitivity.js";
import type { MemoryStore } from "../../../src/memory/store.js";
import { SimVectorize } from "../../doubles/vectorize-sim.js";
import { makeStore } from "./fixtures.js";

const INDEXES = {
  embedded: () => "embedded" as const,
  vectorize: () => new VectorizeIndex({ binding: new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] }), namespace: "motebit-1" }),
};

async function seed(store: MemoryStore) {
  const ids: Record<string, string> = {};
  for (const s of SENSITIVITIES) {
    ids[`owner-${s}`] = (await store.remember({ content: `project falcon ${s} note for the owner`, sensitivity: s, provenance: "owner", scope: "owner" })).node_id;
  }
  ids["peer-a"] = (await store.remember({ content: "project falcon note from agent a", sensitivity: "none", provenance: "peer_agent", scope: "peer:agent-a", sourceId: "agent-a" })).node_id;
  ids["peer-b"] = (await store.remember({ content: "project falcon note from agent b", sensitivity: "none", provenance: "peer_agent", scope: "peer:agent-b", sourceId: "agent-b" })).node_id;
  return ids;
}

for (const [name, index] of Object.entries(INDEXES)) {
  describe(`recall filters (${name} index)`, () => {
    it("serves only the requested scopes", async () => {
      const store = makeStore({ index: index() });
      const ids = await seed(store);
      const peerA = await store.recall({ query: "project falcon note", scopes: ["peer:agent-a"] });
      expect(peerA.map((h) => h.node_id)).toEqual([ids["peer-a"]]);
      expect(peerA[0]).toMatchObject({ provenance: "peer_agent", sensitivity: "none" });
      const both = await store.recall({ query: "project falcon note", scopes: ["peer:agent-a", "peer:agent-b"] });
      expect(new Set(both.map((h) => h.node_id))).toEqual(new Set([ids["peer-a"], ids["peer-b"]]));
      const owner = await store.recall({ query: "project falcon note", scopes: ["owner"] });
      expect(owner).toHaveLength(5);
      expect(owner.every((h) => h.provenance === "owner")).toBe(true);
    });

    it("fails closed: no scopes, an unknown scope, or every sensitivity excluded → nothing", async () => {
      const store = makeStore({ index: index() });
      await seed(store);
      expect(await store.recall({ query: "project falcon note", scopes: [] })).toEqual([]);
      expect(await store.recall({ query: "project falcon note", scopes: ["peer:nobody"] })).toEqual([]);
      expect(await store.recall({ query: "project falcon note", scopes: ["owner"], excludeSensitivities: [...SENSITIVITIES] })).toEqual([]);
    });

    it("leaves out excluded sensitivities", async () => {
      const store = makeStore({ index: index() });
      const ids = await seed(store);
      const hits = await store.recall({ query: "project falcon note", scopes: ["owner"], excludeSensitivities: ["medical", "financial", "secret"] });
      expect(new Set(hits.map((h) => h.node_id))).toEqual(new Set([ids["owner-none"], ids["owner-personal"]]));
    });

    it("refuses an unknown sensitivity in the exclusion list instead of ignoring it", async () => {
      const store = makeStore({ index: index() });
      await seed(store);
      await expect(store.recall({ query: "x", scopes: ["owner"], excludeSensitivities: ["Secret" as never] })).rejects.toThrow(/unknown sensitivity/);
    });

    it("clamps limit to 1..50, default 10", async () => {
      const store = makeStore({ index: index() });
      for (let i = 0; i < 60; i++) await store.remember({ content: `falcon fact number ${i}`, sensitivity: "none", provenance: "owner", scope: "owner" });
      const q = { query: "falcon fact", scopes: ["owner"] };
      expect(await store.recall(q)).toHaveLength(10);
      expect(await store.recall({ ...q, limit: 500 })).toHaveLength(50);
      expect(await store.recall({ ...q, limit: 0 })).toHaveLength(1);
      expect(await store.recall({ ...q, limit: -3 })).toHaveLength(1);
      expect(await store.recall({ ...q, limit: 2.9 })).toHaveLength(2);
      expect(await store.recall({ ...q, limit: Number.NaN })).toHaveLength(10);
      expect(await store.recall({ ...q, limit: "7" as never })).toHaveLength(10);
    });

    it("never serves a forgotten memory", async () => {
      const store = makeStore({ index: index() });
      const ids = await seed(store);
      expect(await store.forget(ids["owner-none"])).toBe(true);
      const hits = await store.recall({ query: "project falcon none note for the owner", scopes: ["owner"] });
      expect(hits.map((h) => h.node_id)).not.toContain(ids["owner-none"]);
    });
  });
}

describe("recall re-checks rows even when the index is stale", () => {
  it("drops candidates whose rows are gone, forgotten or out of scope", async () => {
    // An eventually consistent Vectorize still returns a vector after its row was forgotten.
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"], consistency: "eventual" });
    const store = makeStore({ index: new VectorizeIndex({ binding: sim, namespace: "m" }) });
    const { node_id } = await store.remember({ content: "the garage code is 1234", sensitivity: "none", provenance: "owner", scope: "owner" });
    sim.flush();
    await store.forget(node_id);
    expect(sim.snapshot().map((v) => v.id)).toEqual([node_id]); // delete not applied yet
    expect(await store.recall({ query: "garage code", scopes: ["owner"] })).toEqual([]);
  });
});
