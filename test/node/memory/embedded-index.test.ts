// The embedded index returns exactly what a brute-force scan of the rows would, through every path:
// sparse and dense queries, filters, incremental upserts and deletes, and a rebuild from rows.
import { describe, expect, it } from "vitest";
import { memorySql } from "../helpers/sqlite.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { WorkersAiEmbedder } from "../../../src/memory/embedder-workers-ai.js";
import { EmbeddedIndex } from "../../../src/memory/index-embedded.js";
import type { Embedder } from "../../../src/ports.js";
import { SimWorkersAi } from "../../doubles/workers-ai-sim.js";
import { makeStore } from "./fixtures.js";

const WORDS = "amber basil cedar delta ember fjord grove harbor iris jasper kelp lumen maple nectar onyx pearl quartz raven".split(" ");

async function brute(embedder: Embedder, docs: { id: string; text: string; scope: string; sensitivity: string }[], query: string, k: number, scopes?: string[], sensitivities?: string[]) {
  const [q] = await embedder.embed([query]);
  const vs = await embedder.embed(docs.map((d) => d.text));
  return docs
    .map((d, i) => ({ id: d.id, score: vs[i].reduce((s, x, j) => s + x * q[j], 0), d }))
    .filter(({ d }) => (!scopes || scopes.includes(d.scope)) && (!sensitivities || sensitivities.includes(d.sensitivity)))
    .sort((a, b) => b.score - a.score)
    .slice(0, k)
    .map(({ id, score }) => ({ id, score }));
}

for (const [name, embedder] of [
  ["sparse (local n-gram queries)", new LocalEmbedder()],
  ["dense (768-dim model vectors)", new WorkersAiEmbedder({ ai: new SimWorkersAi() })],
] as const) {
  describe(`EmbeddedIndex, ${name}`, () => {
    it("matches a brute-force scan, with and without filters, before and after deletes and a rebuild", async () => {
      const sql = memorySql();
      const store = makeStore({ sql, embedder });
      const index = store.index as EmbeddedIndex;
      const docs: { id: string; text: string; scope: string; sensitivity: string }[] = [];
      for (let i = 0; i < 120; i++) {
        const text = Array.from({ length: 6 }, (_, j) => WORDS[(i * 7 + j * 3 + (i % 5) * j) % WORDS.length]).join(" ");
        const scope = i % 3 === 0 ? "peer:a" : "owner";
        const sensitivity = i % 4 === 0 ? "secret" : "none";
        docs.push({ id: (await store.remember({ content: text, sensitivity, provenance: "owner", scope })).node_id, text, scope, sensitivity });
      }
      const [q] = await embedder.embed(["harbor maple quartz"]);
      const check = async (k: number, scopes?: string[], sensitivities?: string[]) => {
        const got = index.querySync(q, k, scopes || sensitivities ? { scopes, sensitivities } : undefined);
        const want = await brute(embedder, docs, "harbor maple quartz", k, scopes, sensitivities);
        const all = new Map((await brute(embedder, docs, "harbor maple quartz", 1000, scopes, sensitivities)).map((w) => [w.id, w.score]));
        // Same scores in the same order (ties may list either id first), and each id's score is its true score.
        expect(got).toHaveLength(want.length);
        got.forEach((g, i) => {
          expect(g.score).toBeCloseTo(want[i].score, 5);
          expect(g.score).toBeCloseTo(all.get(g.id)!, 5);
        });
      };
      await check(10);
      await check(200);
      await check(7, ["owner"], ["none"]);
      await check(7, ["peer:a", "owner"], ["secret"]);
      expect(index.querySync(q, 5, { scopes: ["peer:unknown"] })).toEqual([]);
      expect(index.querySync(q, 5, { sensitivities: [] })).toEqual([]);
      expect(index.querySync(q, 0)).toEqual([]);

      for (const d of docs.splice(0, 40)) await store.forget(d.id);
      expect(index.length).toBe(80);
      await check(15);
      index.invalidate();
      await check(15, ["owner"]);
      expect(index.length).toBe(80);
      expect(() => index.querySync(new Float32Array(3), 5)).toThrow(/expected/);
    });
  });
}
