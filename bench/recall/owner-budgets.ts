// motebit-local's default embedder against issue #37's budgets, in this process: the model's cold load (in its
// worker thread) and resident memory after it, embed time per short memory (one text per call, as remember and
// recall embed, and in batches, as a re-embed does), and the owner's recall p50 at 10k memories through
// MemoryStore over node:sqlite, the query's embed included. The 10k rows are 500 memories the encoder really
// embedded, each stored 20 times under new ids: a recall's cost depends on the rows' count and dimension, not on
// which vectors they hold, and embedding 10k distinct texts would take minutes on a shared machine.
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";
import type { SentenceEncoder } from "../../local-stdio/src/encoder/sentence-encoder.js";
import type { CombinedEmbedder } from "../../src/memory/embedder-combined.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { UNSEEN_PARAPHRASES } from "./pairs-unseen.js";

const EMBED_BUDGET_MS = 15;
const RECALL_BUDGET_MS = 25;
const RECALL_SIZE = 10_000;
const DISTINCT = 500;

const p50 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const met = (ok: boolean) => (ok ? "met" : "MISSED");

export async function ownerBudgets(encoder: SentenceEncoder, owner: CombinedEmbedder, short: string[]): Promise<string[]> {
  const rssBefore = process.memoryUsage().rss;
  let t0 = performance.now();
  await encoder.whenReady();
  const loadMs = performance.now() - t0;
  await owner.embed(short.slice(0, 4));
  const rssAfter = process.memoryUsage().rss;

  const single: number[] = [];
  for (let r = 0; r < 3; r++) {
    for (const m of short) {
      t0 = performance.now();
      await owner.embed([m]);
      single.push(performance.now() - t0);
    }
  }
  t0 = performance.now();
  await owner.embed(short);
  const batchedMs = (performance.now() - t0) / short.length;

  const sql = openSqlite(":memory:");
  try {
    const store = new MemoryStore({ sql, embedder: owner, index: "embedded", clock: systemClock });
    store.migrate();
    const texts = Array.from({ length: DISTINCT }, (_, i) => `${short[i % short.length]} (note ${i})`);
    for (const content of texts) await store.remember({ content, sensitivity: "none", provenance: "owner", scope: "owner" });
    const copies = RECALL_SIZE / DISTINCT - 1;
    for (let k = 1; k <= copies; k++) {
      sql.run(`INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
          created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed)
        SELECT id || '#${k}', content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
          created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed FROM memory_nodes WHERE rowid <= ${DISTINCT}`);
    }
    const [{ n }] = sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM memory_nodes`);
    const questions = UNSEEN_PARAPHRASES.map((p) => p.question);
    await store.recall({ query: questions[0], scopes: ["owner"] });
    const recall: number[] = [];
    const queryEmbed: number[] = [];
    for (let r = 0; r < 3; r++) {
      for (const query of questions) {
        t0 = performance.now();
        await store.recall({ query, scopes: ["owner"] });
        recall.push(performance.now() - t0);
        t0 = performance.now();
        await owner.embed([query]);
        queryEmbed.push(performance.now() - t0);
      }
    }
    const mib = (b: number) => (b / 1048576).toFixed(0);
    return [
      `model load (cold, worker thread): ${loadMs.toFixed(0)} ms; resident memory ${mib(rssBefore)} → ${mib(rssAfter)} MiB (RSS, after the first embed)`,
      `embed per short memory, one per call: p50 ${p50(single).toFixed(1)} ms (budget ${EMBED_BUDGET_MS} ms: ${met(p50(single) <= EMBED_BUDGET_MS)}); batched: ${batchedMs.toFixed(1)} ms per text`,
      `recall p50 at ${Number(n).toLocaleString("en")} memories (MemoryStore, node:sqlite, query embed included): ${p50(recall).toFixed(1)} ms (budget ${RECALL_BUDGET_MS} ms: ${met(p50(recall) <= RECALL_BUDGET_MS)}), of which the query's embed alone p50 ${p50(queryEmbed).toFixed(1)} ms`,
    ];
  } finally {
    sql.close();
  }
}
