// The Vectorize adapter's requests, checked against the in-memory Vectorize (the double's core).
// The same adapter is exercised through a real service binding in test/workerd/memory.
import { describe, expect, it } from "vitest";
import { VectorizeIndex, scopeKey } from "../../../src/memory/index-vectorize.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { SimVectorize } from "../../doubles/vectorize-sim.js";

const e = new LocalEmbedder();
const item = (id: string, text: string, scope = "owner", sensitivity = "none") => ({ id, vector: e.embedOne(text), scope, sensitivity });

describe("VectorizeIndex", () => {
  it("upserts in batches of at most 1000 with namespace and metadata", async () => {
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const index = new VectorizeIndex({ binding: sim, namespace: "motebit-a" });
    await index.upsert(Array.from({ length: 2500 }, (_, i) => item(`id-${i}`, `memory ${i}`)));
    expect(sim.calls.upsert).toEqual([1000, 1000, 500]);
    expect(sim.snapshot()[0]).toEqual({ id: "id-0", namespace: "motebit-a", metadata: { scope: "owner", sensitivity: "none" } });
    await index.delete(Array.from({ length: 1200 }, (_, i) => `id-${i}`));
    expect(sim.calls.deleteByIds).toEqual([1000, 200]);
    expect(sim.snapshot()).toHaveLength(1300);
  });

  it("queries with the namespace, $in filters, no values and no metadata, topK capped at 100", async () => {
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const index = new VectorizeIndex({ binding: sim, namespace: "motebit-a" });
    await index.upsert([item("a", "garden roses"), item("b", "garden roses", "peer:x"), item("c", "garden roses", "owner", "secret")]);
    const hits = await index.query(e.embedOne("roses"), 500, { scopes: ["owner"], sensitivities: ["none", "personal"] });
    expect(hits.map((h) => h.id)).toEqual(["a"]);
    expect(sim.calls.query.at(-1)).toEqual({
      topK: 100,
      namespace: "motebit-a",
      filter: { scope: { $in: ["owner"] }, sensitivity: { $in: ["none", "personal"] } },
      returnMetadata: "none",
      returnValues: false,
    });
    expect((await index.query(e.embedOne("roses"), 10)).map((h) => h.id).sort()).toEqual(["a", "b", "c"]);
  });

  it("never sends an empty allowlist: it answers nothing without asking", async () => {
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const index = new VectorizeIndex({ binding: sim, namespace: "m" });
    await index.upsert([item("a", "x")]);
    expect(await index.query(e.embedOne("x"), 5, { scopes: [] })).toEqual([]);
    expect(await index.query(e.embedOne("x"), 5, { sensitivities: [] })).toEqual([]);
    expect(sim.calls.query).toEqual([]);
  });

  it("keeps motebits apart by namespace in one shared index", async () => {
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const a = new VectorizeIndex({ binding: sim, namespace: "motebit-a" });
    const b = new VectorizeIndex({ binding: sim, namespace: "motebit-b" });
    await a.upsert([item("a-1", "shared words here")]);
    await b.upsert([item("b-1", "shared words here")]);
    expect((await a.query(e.embedOne("shared words"), 10, { scopes: ["owner"] })).map((h) => h.id)).toEqual(["a-1"]);
    expect((await b.query(e.embedOne("shared words"), 10, { scopes: ["owner"] })).map((h) => h.id)).toEqual(["b-1"]);
  });

  it("digests scopes too long for a metadata index so distinct scopes stay distinct", async () => {
    const long1 = "peer:" + "x".repeat(70) + "1";
    const long2 = "peer:" + "x".repeat(70) + "2";
    expect(await scopeKey("peer:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK")).toBe("peer:did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK");
    expect(await scopeKey(long1)).toMatch(/^#[0-9a-f]{63}$/);
    const sim = new SimVectorize({ dimensions: 256, metadataIndexes: ["scope", "sensitivity"] });
    const index = new VectorizeIndex({ binding: sim, namespace: "m" });
    await index.upsert([item("one", "hello there", long1), item("two", "hello there", long2)]);
    expect((await index.query(e.embedOne("hello"), 10, { scopes: [long1] })).map((h) => h.id)).toEqual(["one"]);
  });

  it("validates its namespace", () => {
    const sim = new SimVectorize({ dimensions: 256 });
    expect(() => new VectorizeIndex({ binding: sim, namespace: "" })).toThrow(/namespace/);
    expect(() => new VectorizeIndex({ binding: sim, namespace: "n".repeat(65) })).toThrow(/namespace/);
    expect(() => new VectorizeIndex({ binding: sim, namespace: "m", batchSize: 1001 })).toThrow(/batchSize/);
  });
});
