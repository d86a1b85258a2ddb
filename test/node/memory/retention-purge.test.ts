// Memories past their sensitivity's retention are deleted — rows, edges and vectors — not merely hidden.
import { describe, expect, it } from "vitest";
import { memorySql } from "../helpers/sqlite.js";
import { VectorizeIndex } from "../../../src/memory/index-vectorize.js";
import { DEFAULT_RETENTION_DAYS, parseRetentionDays } from "../../../src/memory/retention.js";
import { SimVectorize } from "../../doubles/vectorize-sim.js";
import { DAY, makeStore } from "./fixtures.js";

describe("retention", () => {
  it("defaults to the identity file's values and validates overrides", () => {
    expect(DEFAULT_RETENTION_DAYS).toEqual({ none: 365, personal: 90, medical: 30, financial: 30, secret: 7 });
    expect(parseRetentionDays({ secret: 1 })).toEqual({ ...DEFAULT_RETENTION_DAYS, secret: 1 });
    expect(() => parseRetentionDays({ medical: -1 })).toThrow(/retention_days.medical/);
    expect(() => parseRetentionDays({ none: "forever" })).toThrow(/retention_days.none/);
    expect(() => makeStore({ retentionDays: { personal: Number.NaN } })).toThrow(/retention_days.personal/);
  });

  it("purges each sensitivity after its own retention, deleting rows and edges", async () => {
    const sql = memorySql();
    const store = makeStore({ sql });
    const secret = await store.remember({ content: "alarm code 9911", sensitivity: "secret", provenance: "owner", scope: "owner" });
    const medical = await store.remember({ content: "allergic to penicillin", sensitivity: "medical", provenance: "owner", scope: "owner" });
    const plain = await store.remember({ content: "likes green tea", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.link(plain.node_id, secret.node_id, "mentions");

    store.clock.advance(8 * DAY);
    expect(await store.purgeExpired()).toEqual({ purged: 1 });
    expect(sql.all(`SELECT id FROM memory_nodes WHERE id = ?`, secret.node_id)).toEqual([]);
    expect(sql.all(`SELECT * FROM memory_edges`)).toEqual([]);

    store.clock.advance(23 * DAY); // day 31
    expect(await store.purgeExpired()).toEqual({ purged: 1 });
    expect(store.get(medical.node_id)).toBeNull();
    expect(store.get(plain.node_id)).not.toBeNull();

    store.clock.advance(335 * DAY); // day 366
    expect(await store.purgeExpired()).toEqual({ purged: 1 });
    expect(store.count({ includeForgotten: true })).toBe(0);
  });

  it("purges tombstones too", async () => {
    const store = makeStore();
    const { node_id } = await store.remember({ content: "old plan", sensitivity: "secret", provenance: "owner", scope: "owner" });
    await store.forget(node_id);
    store.clock.advance(8 * DAY);
    await store.purgeExpired();
    expect(store.list({ includeForgotten: true })).toEqual([]);
  });

  it("removes purged vectors from the index", async () => {
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const store = makeStore({ index: new VectorizeIndex({ binding: sim, namespace: "m" }) });
    await store.remember({ content: "alarm code 9911", sensitivity: "secret", provenance: "owner", scope: "owner" });
    const keep = await store.remember({ content: "alarm battery changed", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.clock.advance(8 * DAY);
    await store.purgeExpired();
    expect(sim.snapshot().map((v) => v.id)).toEqual([keep.node_id]);
  });

  it("never recalls an expired memory, even before a purge has run", async () => {
    const store = makeStore();
    await store.remember({ content: "wifi password is hunter2", sensitivity: "secret", provenance: "owner", scope: "owner" });
    expect(await store.recall({ query: "wifi password", scopes: ["owner"] })).toHaveLength(1);
    store.clock.advance(7 * DAY + 1);
    expect(await store.recall({ query: "wifi password", scopes: ["owner"] })).toEqual([]);
    // The recall above ran the purge as well: the row itself is gone.
    expect(store.count({ includeForgotten: true })).toBe(0);
  });

  it("0 days means not retained", async () => {
    const store = makeStore({ retentionDays: { secret: 0 } });
    await store.remember({ content: "one-time code 553", sensitivity: "secret", provenance: "owner", scope: "owner" });
    expect(await store.purgeExpired()).toEqual({ purged: 1 });
    await store.remember({ content: "one-time code 554", sensitivity: "secret", provenance: "owner", scope: "owner" });
    expect(await store.recall({ query: "one-time code", scopes: ["owner"] })).toEqual([]);
  });
});
