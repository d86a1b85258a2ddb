// The owner's tools over the store: list, forget (tombstone), export, count, and edges.
import { describe, expect, it } from "vitest";
import { memorySql } from "../helpers/sqlite.js";
import { makeStore } from "./fixtures.js";

describe("list", () => {
  it("lists newest first, by scope, with paging, hiding tombstones unless asked", async () => {
    const store = makeStore();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await store.remember({ content: `owner fact ${i}`, sensitivity: "none", provenance: "owner", scope: "owner" })).node_id);
      store.clock.advance(1000);
    }
    await store.remember({ content: "peer fact", sensitivity: "none", provenance: "peer_agent", scope: "peer:a", sourceId: "a" });
    await store.forget(ids[4]);

    expect(store.list({ scope: "owner" }).map((r) => r.node_id)).toEqual([ids[3], ids[2], ids[1], ids[0]]);
    expect(store.list({ scope: "owner", limit: 2, offset: 1 }).map((r) => r.node_id)).toEqual([ids[2], ids[1]]);
    expect(store.list({ scope: "owner", includeForgotten: true })[0]).toMatchObject({ node_id: ids[4], content: "", forgotten_at: store.clock.now() });
    expect(store.list()).toHaveLength(5);
    expect(store.list({ limit: 10_000 })).toHaveLength(5);
    expect(store.count()).toBe(5);
    expect(store.count({ scope: "owner" })).toBe(4);
    expect(store.count({ includeForgotten: true })).toBe(6);
    const [peer] = store.list({ scope: "peer:a" });
    expect(peer).toEqual({
      node_id: peer.node_id,
      content: "peer fact",
      sensitivity: "none",
      provenance: "peer_agent",
      source_id: "a",
      scope: "peer:a",
      memory_type: "semantic",
      confidence: 0.5,
      half_life_days: 7,
      created_at: store.clock.now(),
      last_accessed_at: store.clock.now(),
      forgotten_at: null,
    });
  });
});

describe("forget", () => {
  it("tombstones the node: content and vector erased at once, never recalled, row kept", async () => {
    const sql = memorySql();
    const store = makeStore({ sql });
    const { node_id } = await store.remember({ content: "my old password is swordfish", sensitivity: "secret", provenance: "owner", scope: "owner" });
    expect(await store.recall({ query: "old password", scopes: ["owner"] })).toHaveLength(1);
    expect(await store.forget(node_id)).toBe(true);
    expect(await store.forget(node_id)).toBe(false);
    expect(await store.forget("no-such-id")).toBe(false);
    expect(await store.recall({ query: "old password swordfish", scopes: ["owner"] })).toEqual([]);
    expect(sql.all(`SELECT content, embedding, forgotten_at IS NOT NULL AS gone FROM memory_nodes WHERE id = ?`, node_id)).toEqual([
      { content: "", embedding: null, gone: 1 },
    ]);
    expect(sql.all(`SELECT count(*) AS n FROM memory_nodes WHERE content LIKE '%swordfish%'`)).toEqual([{ n: 0 }]);
  });
});

describe("exportAll", () => {
  it("exports every node with its edges as plain JSON, without embeddings", async () => {
    const store = makeStore();
    const a = await store.remember({ content: "Alice leads the infra team", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.clock.advance(1);
    const b = await store.remember({ content: "The infra team owns the deploy pipeline", sensitivity: "personal", provenance: "tool_derived", scope: "owner", sourceId: "tool:notes" });
    store.clock.advance(1);
    const c = await store.remember({ content: "gone", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.link(a.node_id, b.node_id, "related", 0.8);
    await store.forget(c.node_id);

    const exported = store.exportAll();
    expect(JSON.parse(JSON.stringify(exported))).toEqual(exported);
    expect(exported.map((e) => e.node_id)).toEqual([a.node_id, b.node_id, c.node_id]);
    expect(exported[0].edges).toEqual([{ to_id: b.node_id, relation: "related", weight: 0.8, created_at: store.clock.now() }]);
    expect(exported[1]).toMatchObject({ provenance: "tool_derived", source_id: "tool:notes", sensitivity: "personal", edges: [] });
    expect(exported[2]).toMatchObject({ content: "", forgotten_at: store.clock.now() });
    for (const e of exported) expect(Object.keys(e)).not.toContain("embedding");
  });
});

describe("edges", () => {
  it("links live nodes only and lists edges in both directions", async () => {
    const store = makeStore();
    const a = await store.remember({ content: "a", sensitivity: "none", provenance: "owner", scope: "owner" });
    const b = await store.remember({ content: "b", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.link(a.node_id, b.node_id);
    store.link(a.node_id, b.node_id); // idempotent
    expect(store.edges(b.node_id)).toEqual([{ from_id: a.node_id, to_id: b.node_id, relation: "related", weight: 1, created_at: store.clock.now() }]);
    expect(() => store.link(a.node_id, a.node_id)).toThrow(/itself/);
    expect(() => store.link(a.node_id, "nope")).toThrow('unknown memory node "nope"');
    await store.forget(b.node_id);
    expect(() => store.link(a.node_id, b.node_id, "other")).toThrow(/unknown memory node/);
  });
});
