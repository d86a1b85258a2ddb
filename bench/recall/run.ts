// Recall bench: does the right memory come first when the question says it in other words? For each set
// (tuning, held-out, and the unseen set of issue #37) every memory of the set is stored, each question is ranked
// against all of them by cosine, and top-1, top-3 and mean reciprocal rank are printed for paraphrase and
// exact-name questions, for the lexical embedder, the word table (the edge's default), motebit-local's default
// (sentence encoder + word table, CombinedEmbedder), and Ollama when one answers. Also prints the budgets: the
// word table's size (raw and in the Worker bundle, gzip) and embed time, and motebit-local's (bench/recall/owner-budgets.ts).
//   npx tsx bench/recall/run.ts [--sweep]     (--sweep: top-1 by the table's semantic share and by the encoder's
//                                               share in motebit-local's default, on the tuning set only)
// Ollama: MOTEBIT_OLLAMA_URL (default http://127.0.0.1:11434) and MOTEBIT_OLLAMA_EMBED_MODEL (default nomic-embed-text).
import { gzipSync } from "node:zlib";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import type { Embedder } from "../../src/ports.js";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../src/memory/embedder-semantic.js";
import { provideWordTable } from "../../src/memory/word-table.js";
import { wordTableFile } from "../../local-stdio/src/word-table-file.js";
import { createOllamaEmbedder } from "../../src/memory/embedder-ollama.js";
import { CombinedEmbedder } from "../../src/memory/embedder-combined.js";
import { SentenceEncoder } from "../../local-stdio/src/encoder/sentence-encoder.js";
import { ownerBudgets } from "./owner-budgets.js";
import { UNSEEN_PARAPHRASES } from "./pairs-unseen.js";
import type { RecallPair } from "./pairs.js";
import { HELDOUT_EXACT, HELDOUT_PARAPHRASES } from "./pairs-heldout.js";
import { TUNING_EXACT, TUNING_PARAPHRASES } from "./pairs-tuning.js";
import { sharedContentWords } from "./shared-words.js";

interface Scores { top1: number; top3: number; mrr: number; n: number }

/** Ranks each question's own memory among all memories of the set. */
async function score(e: Embedder, pool: readonly RecallPair[], asked: readonly RecallPair[]): Promise<Scores> {
  const memories = await e.embed(pool.map((p) => p.memory));
  const questions = await e.embed(asked.map((p) => p.question));
  let top1 = 0, top3 = 0, rr = 0;
  asked.forEach((p, qi) => {
    const target = pool.indexOf(p);
    const sims = memories.map((m) => dot(m, questions[qi]));
    // Ties count against: the rank is 1 + how many score at least as high (other than the target).
    const rank = 1 + sims.filter((s, i) => i !== target && s >= sims[target]).length;
    if (rank === 1) top1++;
    if (rank <= 3) top3++;
    rr += 1 / rank;
  });
  return { top1: top1 / asked.length, top3: top3 / asked.length, mrr: rr / asked.length, n: asked.length };
}

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

async function ollama(): Promise<Embedder | null> {
  const baseUrl = (process.env.MOTEBIT_OLLAMA_URL ?? "http://127.0.0.1:11434").replace(/\/$/, "") + "/api";
  const model = process.env.MOTEBIT_OLLAMA_EMBED_MODEL ?? "nomic-embed-text";
  try {
    const res = await fetch(baseUrl.replace(/\/api$/, "/api/tags"), { signal: AbortSignal.timeout(1000) });
    if (!res.ok) return null;
    return await createOllamaEmbedder({ baseUrl, model });
  } catch {
    return null;
  }
}

provideWordTable(wordTableFile(new URL("../../data/word-table.json", import.meta.url)));
const f = (x: number) => x.toFixed(2);
const SETS = [
  { name: "tuning", paraphrases: TUNING_PARAPHRASES, exact: TUNING_EXACT },
  { name: "held-out", paraphrases: HELDOUT_PARAPHRASES, exact: HELDOUT_EXACT },
  { name: "unseen", paraphrases: UNSEEN_PARAPHRASES, exact: [] },
];
const log = (line: string) => void process.stderr.write(line + "\n");
const encoder = new SentenceEncoder({ log });

for (const s of SETS) {
  const overlaps = s.paraphrases.filter((p) => sharedContentWords(p.memory, p.question).length > 0);
  if (overlaps.length > 0) {
    for (const p of overlaps) console.error(`shares content words (${sharedContentWords(p.memory, p.question).join(", ")}): ${p.question}`);
    throw new Error(`${s.name}: ${overlaps.length} paraphrase questions share a content word with their memory`);
  }
}

if (process.argv.includes("--sweep")) {
  const pool = [...TUNING_PARAPHRASES, ...TUNING_EXACT];
  console.log("semantic share | paraphrase top-1 | MRR | exact top-1");
  for (const share of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const e = new SemanticEmbedder({ semanticShare: share });
    const p = await score(e, pool, TUNING_PARAPHRASES);
    const x = await score(e, pool, TUNING_EXACT);
    console.log(`${share.toFixed(1).padStart(14)} | ${f(p.top1).padStart(16)} | ${f(p.mrr)} | ${f(x.top1)}`);
  }
  console.log("\nencoder share (motebit-local) | paraphrase top-1 | MRR | exact top-1");
  for (const share of [0, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]) {
    const e = new CombinedEmbedder({ encoder, table: new SemanticEmbedder(), encoderShare: share });
    const p = await score(e, pool, TUNING_PARAPHRASES);
    const x = await score(e, pool, TUNING_EXACT);
    console.log(`${share.toFixed(1).padStart(29)} | ${f(p.top1).padStart(16)} | ${f(p.mrr)} | ${f(x.top1)}`);
  }
  await encoder.close();
  process.exit(0);
}

// Budgets of the default, measured before anything else decodes the table.
const semantic = new SemanticEmbedder();
let t0 = performance.now();
await semantic.embed(["first embed loads and decodes the table"]);
const firstEmbedMs = performance.now() - t0;
const short = TUNING_PARAPHRASES.map((p) => p.memory);
for (let r = 0; r < 20; r++) for (const m of short) semantic.embedOne(m);
const ROUNDS = 100;
t0 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const m of short) semantic.embedOne(m);
const embedMs = (performance.now() - t0) / (ROUNDS * short.length);
const lexical = new LocalEmbedder();
t0 = performance.now();
for (let r = 0; r < ROUNDS; r++) for (const m of short) lexical.embedOne(m);
const lexicalMs = (performance.now() - t0) / (ROUNDS * short.length);

const owner = new CombinedEmbedder({ encoder, table: semantic });
const ownerFigures = await ownerBudgets(encoder, owner, short);
const embedders: Embedder[] = [lexical, semantic, owner];
const o = await ollama();
if (o) embedders.push(o);

for (const s of SETS) {
  const pool = [...s.paraphrases, ...s.exact];
  console.log(`\n${s.name} set: ${s.paraphrases.length} paraphrase + ${s.exact.length} exact-name questions, each against all ${pool.length} memories`);
  if (s.exact.length === 0) {
    console.log("  embedder                         | paraphrase top-1 | top-3 |  MRR");
    for (const e of embedders) {
      const p = await score(e, pool, s.paraphrases);
      console.log(`  ${e.id.padEnd(32)} | ${f(p.top1).padStart(16)} | ${f(p.top3).padStart(5)} | ${f(p.mrr)}`);
    }
    continue;
  }
  console.log("  embedder                         | paraphrase top-1 | top-3 |  MRR | exact top-1 | top-3 |  MRR");
  for (const e of embedders) {
    const p = await score(e, pool, s.paraphrases);
    const x = await score(e, pool, s.exact);
    console.log(`  ${e.id.padEnd(32)} | ${f(p.top1).padStart(16)} | ${f(p.top3).padStart(5)} | ${f(p.mrr)} | ${f(x.top1).padStart(11)} | ${f(x.top3).padStart(5)} | ${f(x.mrr)}`);
  }
  if (s.name === "tuning") {
    const byTopic = new Map<string, RecallPair[]>();
    for (const p of s.paraphrases) byTopic.set(p.topic, [...(byTopic.get(p.topic) ?? []), p]);
    const cells = [];
    for (const [topic, pairs] of byTopic) cells.push(`${topic} ${f((await score(semantic, pool, pairs)).top1)}`);
    console.log(`  ${semantic.id} paraphrase top-1 by topic: ${cells.join(", ")}`);
  }
}
if (!o) console.log("\n(ollama: not reachable, column left out)");

const workerBundle = await build({
  entryPoints: [fileURLToPath(new URL("../../worker/index.ts", import.meta.url))],
  bundle: true, format: "esm", platform: "neutral", target: "es2022", external: ["cloudflare:*", "node:*"],
  conditions: ["workerd", "worker", "browser"], write: false, logLevel: "silent",
});
const tableModule = await build({
  entryPoints: [fileURLToPath(new URL("../../data/word-table.json", import.meta.url))],
  bundle: true, format: "esm", write: false,
});
const mib = (b: number) => (b / 1048576).toFixed(2);
const bundleGz = gzipSync(workerBundle.outputFiles[0].contents).byteLength;
const tableGz = gzipSync(tableModule.outputFiles[0].contents).byteLength;
console.log(`\nbudgets of ${semantic.id}:`);
console.log(`  Worker bundle (esbuild, gzip): ${mib(bundleGz)} MiB of which the word table ${mib(tableGz)} MiB (budget 3.00 MiB: ${bundleGz <= 3 * 1048576 ? "met" : "MISSED"})`);
console.log(`  first embed (imports and decodes the table): ${firstEmbedMs.toFixed(1)} ms`);
console.log(`  embed per short memory (Node): ${embedMs.toFixed(4)} ms vs lexical ${lexicalMs.toFixed(4)} ms (×${(embedMs / lexicalMs).toFixed(1)}; budget 0.2 ms: ${embedMs <= 0.2 ? "met" : "MISSED"})`);
console.log(`\nbudgets of ${owner.id} (motebit-local's default, Node, this process):`);
for (const line of ownerFigures) console.log(`  ${line}`);
await encoder.close();
