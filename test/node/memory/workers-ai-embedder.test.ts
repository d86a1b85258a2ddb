// The Workers AI embedder adapter, over the in-memory Workers AI (the service-binding double's core).
import { describe, expect, it } from "vitest";
import { WorkersAiEmbedder, WORKERS_AI_MAX_CHARS } from "../../../src/memory/embedder-workers-ai.js";
import { memoryBackends } from "../../../src/memory/backends.js";
import { EmbeddedIndex } from "../../../src/memory/index-embedded.js";
import { VectorizeIndex } from "../../../src/memory/index-vectorize.js";
import { SemanticEmbedder } from "../../../src/memory/embedder-semantic.js";
import { SimWorkersAi } from "../../doubles/workers-ai-sim.js";
import { SimVectorize } from "../../doubles/vectorize-sim.js";
import { makeStore } from "./fixtures.js";

const norm = (v: Float32Array) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

describe("WorkersAiEmbedder", () => {
  it("calls bge-base in batches of at most 100 and normalises what comes back", async () => {
    const ai = new SimWorkersAi();
    const e = new WorkersAiEmbedder({ ai });
    expect(e).toMatchObject({ id: "workers-ai:@cf/baai/bge-base-en-v1.5", dimensions: 768 });
    const texts = Array.from({ length: 250 }, (_, i) => `memory number ${i}`);
    const out = await e.embed(texts);
    expect(ai.calls).toEqual([
      { model: "@cf/baai/bge-base-en-v1.5", batch: 100 },
      { model: "@cf/baai/bge-base-en-v1.5", batch: 100 },
      { model: "@cf/baai/bge-base-en-v1.5", batch: 50 },
    ]);
    expect(out).toHaveLength(250);
    for (const v of out) expect(norm(v)).toBeCloseTo(1, 5);
    expect(await e.embed([])).toEqual([]);
  });

  it("sends at most what the model reads, without splitting a surrogate pair", async () => {
    const seen: string[][] = [];
    const e = new WorkersAiEmbedder({
      ai: { run: async (_m, inputs) => { seen.push((inputs as { text: string[] }).text); return { data: [new Array(768).fill(1)] }; } },
    });
    await e.embed(["a".repeat(WORKERS_AI_MAX_CHARS - 1) + "😀tail"]);
    expect(seen[0][0]).toBe("a".repeat(WORKERS_AI_MAX_CHARS - 1));
  });

  it("rejects malformed responses with clear errors", async () => {
    const bad = (data: unknown) => new WorkersAiEmbedder({ ai: { run: async () => ({ data }) } });
    await expect(bad(undefined).embed(["x"])).rejects.toThrow("returned no embeddings for 1 texts");
    await expect(bad([[1, 2, 3]]).embed(["x"])).rejects.toThrow("embedding of 3 dimensions, expected 768");
    await expect(bad([new Array(768).fill(Number.NaN)]).embed(["x"])).rejects.toThrow("non-finite");
  });

  it("backs a store end to end", async () => {
    const store = makeStore({ embedder: new WorkersAiEmbedder({ ai: new SimWorkersAi() }) });
    const { node_id } = await store.remember({ content: "The release train leaves every other Tuesday", sensitivity: "none", provenance: "owner", scope: "owner" });
    expect((await store.recall({ query: "release train schedule", scopes: ["owner"] }))[0].node_id).toBe(node_id);
  });
});

describe("memoryBackends", () => {
  const ai = new SimWorkersAi();
  const vectorize = new SimVectorize({ dimensions: 768 });

  it("chooses by the bindings that are configured", () => {
    const none = memoryBackends({ motebitId: "m" });
    expect(none.embedder).toBeInstanceOf(SemanticEmbedder);
    expect(none.index).toBe("embedded");
    const aiOnly = memoryBackends({ ai, motebitId: "m" });
    expect(aiOnly.embedder).toBeInstanceOf(WorkersAiEmbedder);
    expect(aiOnly.index).toBe("embedded");
    const both = memoryBackends({ ai, vectorize, motebitId: "motebit-123" });
    expect(both.index).toBeInstanceOf(VectorizeIndex);
    expect((both.index as VectorizeIndex).id).toBe("vectorize:motebit-123");
    expect(() => memoryBackends({ vectorize, motebitId: "m" })).toThrow(/VECTORIZE is bound but AI is not/);
  });

  it("the embedded choice is an EmbeddedIndex inside the store", () => {
    expect(makeStore().index).toBeInstanceOf(EmbeddedIndex);
  });
});
