// motebit-local's combined score is one rule in the core: the dot product of two combined vectors is
// share · encoder cosine + (1 − share) · table cosine; the id names both parts and the share, so vectors of
// another combination (or of either part alone) are never ranked against it: a store re-embeds them first, and
// one that cannot (its encoder fails) refuses the recall instead of comparing vectors of two embedders.
import { describe, expect, it } from "vitest";
import { CombinedEmbedder, ENCODER_SHARE } from "../../../src/memory/embedder-combined.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../../src/memory/embedder-semantic.js";
import { MemoryStore } from "../../../src/memory/store.js";
import type { Embedder } from "../../../src/ports.js";
import { systemClock } from "../../../src/ports.js";
import { memorySql } from "../helpers/sqlite.js";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const TEXTS = ["The ferry crossing takes four hours", "how long is the boat ride?", "Invoice 4471 was paid on the 3rd"];

/** A second, different embedder standing in for the encoder (the real one is tested over stdio). */
const otherEmbedder = (): Embedder => new LocalEmbedder({ dimensions: 64 });

describe("CombinedEmbedder", () => {
  it.each([0, 0.3, ENCODER_SHARE, 1])("scores share · encoder cosine + (1 − share) · table cosine (share %s)", async (share) => {
    const encoder = otherEmbedder();
    const table = new SemanticEmbedder();
    const combined = await new CombinedEmbedder({ encoder, table, encoderShare: share }).embed(TEXTS);
    const e = await encoder.embed(TEXTS);
    const t = await table.embed(TEXTS);
    for (let i = 0; i < TEXTS.length; i++) {
      expect(dot(combined[i], combined[i])).toBeCloseTo(1, 5);
      for (let j = 0; j < TEXTS.length; j++) {
        expect(dot(combined[i], combined[j])).toBeCloseTo(share * dot(e[i], e[j]) + (1 - share) * dot(t[i], t[j]), 5);
      }
    }
  });

  it("names both parts and the share in its id, and refuses a share outside 0..1", () => {
    const table = new SemanticEmbedder();
    const ids = new Set([
      new CombinedEmbedder({ encoder: otherEmbedder(), table }).id,
      new CombinedEmbedder({ encoder: otherEmbedder(), table, encoderShare: 0.5 }).id,
      new CombinedEmbedder({ encoder: new LocalEmbedder({ dimensions: 32 }), table }).id,
      table.id,
    ]);
    expect(ids.size).toBe(4);
    expect(new CombinedEmbedder({ encoder: otherEmbedder(), table }).id).toBe(`local-ngram-v1-64+${table.id}@${ENCODER_SHARE}`);
    expect(() => new CombinedEmbedder({ encoder: otherEmbedder(), table, encoderShare: 1.5 })).toThrow(/encoderShare must be in 0\.\.1/);
  });

  it("a store never ranks the table's vectors against combined ones: it re-embeds first, and refuses when it cannot", async () => {
    const sql = memorySql();
    try {
      const before = new MemoryStore({ sql, embedder: new SemanticEmbedder(), index: "embedded", clock: systemClock });
      for (const content of TEXTS) await before.remember({ content, sensitivity: "none", provenance: "owner", scope: "owner" });

      const broken: Embedder = { id: "broken-encoder-8", dimensions: 8, embed: () => Promise.reject(new Error("the model did not load")) };
      const failing = new MemoryStore({ sql, embedder: new CombinedEmbedder({ encoder: broken, table: new SemanticEmbedder() }), index: "embedded", clock: systemClock });
      await expect(failing.recall({ query: "boat ride", scopes: ["owner"] })).rejects.toThrow(/the model did not load/);
      expect(sql.all("SELECT DISTINCT embedder_id FROM memory_nodes")).toEqual([{ embedder_id: "local-sif-v4-356" }]);

      const combined = new CombinedEmbedder({ encoder: otherEmbedder(), table: new SemanticEmbedder() });
      const after = new MemoryStore({ sql, embedder: combined, index: "embedded", clock: systemClock });
      const hits = await after.recall({ query: "Invoice 4471", scopes: ["owner"], limit: 1 });
      expect(hits[0].content).toBe("Invoice 4471 was paid on the 3rd");
      expect(sql.all("SELECT DISTINCT embedder_id FROM memory_nodes")).toEqual([{ embedder_id: combined.id }]);
    } finally {
      sql.close();
    }
  });
});
