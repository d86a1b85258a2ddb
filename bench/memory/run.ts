// Memory bench: recall latency (p50/p99) of the embedded index at 1k, 10k and 50k memories inside workerd
// (a Durable Object over its real SQLite, via Miniflare) and remember throughput, with Node
// (node:sqlite) as the reference, each for the semantic default and, as the baseline in the same run, the
// lexical embedder it replaced. Prints how latency grows with size, the default's recall p50 at 10k against the
// baseline's (budget ×1.5), and where to switch to Vectorize. With --before=<dir>, a checkout of an earlier commit
// (`git archive <commit> | tar -x -C <dir>`), both embedders also run on that checkout's index
// (src/memory/index-embedded.ts, imported from there in Node and bundled from there for workerd), in the same
// process: the budget is against that "today's", since a faster index speeds up the baseline too.
// --english draws the memories from English words (english-words.ts), so the semantic default's word-vector part
// is scored for nearly every query, which the made-up words of the default corpus rarely do.
//   npx tsx bench/memory/run.ts [--quick] [--english] [--before=<dir>]   (about a minute; --quick for 1k/5k only)
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build, type Plugin } from "esbuild";
import { Miniflare } from "miniflare";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../src/memory/embedder-semantic.js";
import { provideWordTable } from "../../src/memory/word-table.js";
import { wordTableFile } from "../../local-stdio/src/word-table-file.js";
import type { EmbeddedIndex } from "../../src/memory/index-embedded.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { MemoryBench, type StepResult } from "./bench-core.js";
import { englishWords } from "./english-words.js";

for (const k of ["WRANGLER_SEND_METRICS", "WRANGLER_SEND_ERROR_REPORTS", "CLOUDFLARE_CF_FETCH_ENABLED"]) process.env[k] ??= "false";

provideWordTable(wordTableFile(new URL("../../data/word-table.json", import.meta.url)));
const QUICK = process.argv.includes("--quick");
const SIZES = QUICK ? [1_000, 5_000] : [1_000, 10_000, 50_000];
const QUERIES = QUICK ? 50 : 200;
const ENGLISH = process.argv.includes("--english");
/** The latency goal at 10k memories, and the line past which the docs send users to Vectorize. */
const TARGET_P50_MS = 20;
/** Keep the vector matrix well inside a Durable Object isolate's 128 MB. */
const MATRIX_BUDGET_BYTES = 32 * 1024 * 1024;

type EmbedderName = "lexical" | "semantic";
type IndexName = "current" | "before";
interface Run {
  embedder: EmbedderName;
  index: IndexName;
}
const BEFORE = process.argv.find((a) => a.startsWith("--before="))?.slice("--before=".length) ?? null;
const BEFORE_INDEX = BEFORE === null ? null : resolve(BEFORE, "src/memory/index-embedded.ts");
if (BEFORE_INDEX !== null && !existsSync(BEFORE_INDEX)) throw new Error(`--before: no ${BEFORE_INDEX}`);
const RUNS: Run[] = [
  { embedder: "lexical", index: "current" },
  { embedder: "semantic", index: "current" },
  ...(BEFORE_INDEX === null ? [] : ([{ embedder: "lexical", index: "before" }, { embedder: "semantic", index: "before" }] as const)),
];
const label = (r: Run) => r.embedder + (r.index === "before" ? "@before" : "");

// Points worker.ts's import of before-index.js at the --before checkout's index.
const beforeIndexPlugin = (file: string): Plugin => ({
  name: "before-index",
  setup: (b) => b.onResolve({ filter: /\/before-index\.js$/ }, () => ({ path: file })),
});

async function inWorkerd(): Promise<Map<string, StepResult[]>> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./worker.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["cloudflare:*"],
    plugins: BEFORE_INDEX === null ? [] : [beforeIndexPlugin(BEFORE_INDEX)],
    write: false,
  });
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: "2026-04-20",
    durableObjects: { BENCH: { className: "BenchObject", useSQLite: true } },
  });
  try {
    const out = new Map<string, StepResult[]>();
    // One run after another, each dropping its store when done: one isolate holds all the objects, and four
    // stores at 50k outgrow its memory (workerd then restarts them, and a store grows again over its rows).
    for (const r of RUNS) {
      const rows: StepResult[] = [];
      const at = `http://bench/step?embedder=${r.embedder}&index=${r.index}`;
      for (const size of SIZES) {
        const res = await mf.dispatchFetch(`${at}&size=${size}&queries=${QUERIES}${ENGLISH ? "&english=1" : ""}`);
        if (!res.ok) throw new Error(`workerd step ${label(r)} ${size}: ${res.status} ${await res.text()}`);
        rows.push((await res.json()) as StepResult);
        process.stdout.write(".");
      }
      await (await mf.dispatchFetch(`${at}&release=1`)).arrayBuffer();
      out.set(label(r), rows);
    }
    return out;
  } finally {
    await mf.dispose();
  }
}

const beforeModule = BEFORE_INDEX === null ? null : ((await import(pathToFileURL(BEFORE_INDEX).href)) as { EmbeddedIndex: typeof EmbeddedIndex });

async function inNode(): Promise<Map<string, StepResult[]>> {
  const runs = RUNS.map((r) => {
    const sql = openSqlite(":memory:");
    const embedder = r.embedder === "lexical" ? new LocalEmbedder() : new SemanticEmbedder();
    const index = r.index === "before" ? new beforeModule!.EmbeddedIndex({ sql, embedderId: embedder.id, dimensions: embedder.dimensions }) : "embedded";
    const store = new MemoryStore({ sql, embedder, index, clock: systemClock });
    store.migrate();
    return { name: label(r), sql, bench: new MemoryBench(store, ENGLISH ? englishWords() : undefined), rows: [] as StepResult[] };
  });
  // Runs take turns at each size, so a change in the machine's load falls on all of them alike.
  for (const size of SIZES) {
    for (const run of runs) {
      run.rows.push(await run.bench.step(size, QUERIES));
      process.stdout.write(".");
    }
  }
  for (const run of runs) run.sql.close();
  return new Map(runs.map((run) => [run.name, run.rows]));
}

const ms = (x: number) => x.toFixed(2).padStart(7);
const n = (x: number) => x.toLocaleString("en-US");

function table(name: string, rows: StepResult[]): void {
  console.log(`\n${name}`);
  console.log("  memories | recall p50 | p50 of 10 | recall p99 | recall mean | scan p50 | scan p99 | scan mean | remember/s | vectors in memory");
  for (const r of rows) {
    console.log(
      `  ${n(r.size).padStart(8)} | ${ms(r.recallP50)} ms | ${ms(r.recallP50Batched)} ms | ${ms(r.recallP99)} ms | ${ms(r.recallMean)} ms  | ${ms(r.scanP50)} ms | ${ms(r.scanP99)} ms | ${ms(r.scanMean)} ms | ${Math.round(r.rememberPerSec).toString().padStart(10)} | ${(r.matrixBytes / 1048576).toFixed(1)} MB`,
    );
  }
  for (let i = 1; i < rows.length; i++) {
    const a = rows[i - 1], b = rows[i];
    console.log(
      `  ${n(a.size)} → ${n(b.size)} (×${b.size / a.size}): recall p50 ×${(b.recallP50 / a.recallP50).toFixed(1)}, recall mean ×${(b.recallMean / a.recallMean).toFixed(1)}, scan mean ×${(b.scanMean / a.scanMean).toFixed(1)}`,
    );
  }
}

/** Size at which mean recall reaches the target, from a line through the two largest measurements. */
function sizeAtTarget(rows: StepResult[]): number {
  const [a, b] = rows.slice(-2);
  const slope = (b.recallMean - a.recallMean) / (b.size - a.size);
  if (slope <= 0) return Number.POSITIVE_INFINITY;
  return a.size + (TARGET_P50_MS - a.recallMean) / slope;
}

const t0 = performance.now();
process.stdout.write(`memory bench: ${SIZES.map(n).join(" / ")} ${ENGLISH ? "English " : ""}memories, ${QUERIES} recalls per size, runs ${RUNS.map(label).join(", ")} `);
const workerd = await inWorkerd();
const node = await inNode();
console.log(` done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
const TITLES: Record<string, string> = {
  lexical: "baseline: lexical local-ngram-v1-256",
  semantic: `default: semantic ${new SemanticEmbedder().id}`,
  "lexical@before": `lexical on the index of ${BEFORE}`,
  "semantic@before": `semantic on the index of ${BEFORE}`,
};
for (const [title, runs] of [
  ["workerd (Durable Object, ctx.storage.sql, embedded index)", workerd],
  ["node (node:sqlite in memory)", node],
] as const) {
  for (const [name, rows] of runs) table(`${title} — ${TITLES[name]}`, rows);
}

const BUDGET_RATIO = 1.5;
/** The budget is at 10k (the largest size with --quick). */
const size = SIZES.includes(10_000) ? 10_000 : SIZES.at(-1)!;
const at = (rows: StepResult[] | undefined) => rows?.find((r) => r.size === size);
const ratio = (a: number, b: number) => `×${(a / b).toFixed(2)}`;
for (const [host, runs] of [["workerd", workerd], ["node", node]] as const) {
  const now = at(runs.get("semantic"))!, lex = at(runs.get("lexical"))!;
  const old = at(runs.get("lexical@before")), oldNow = at(runs.get("semantic@before"));
  // The "today's" is the lexical embedder on the index as it was; without --before, the same run's lexical stands in.
  const base = old ?? lex;
  // The verdict uses the median of 10-recall batches: single recalls in workerd read in whole milliseconds.
  const met = now.recallP50Batched / base.recallP50Batched <= BUDGET_RATIO ? "met" : "MISSED";
  console.log(`\n${host}: recall p50 / p50 of 10 / mean at ${n(size)}: semantic ${now.recallP50.toFixed(2)} / ${now.recallP50Batched.toFixed(2)} / ${now.recallMean.toFixed(2)} ms`);
  console.log(`  vs lexical on this index ${lex.recallP50.toFixed(2)} / ${lex.recallP50Batched.toFixed(2)} / ${lex.recallMean.toFixed(2)} ms = ${ratio(now.recallP50, lex.recallP50)} / ${ratio(now.recallP50Batched, lex.recallP50Batched)} / ${ratio(now.recallMean, lex.recallMean)}`);
  if (old && oldNow) {
    console.log(`  vs lexical on the index before ${old.recallP50.toFixed(2)} / ${old.recallP50Batched.toFixed(2)} / ${old.recallMean.toFixed(2)} ms = ${ratio(now.recallP50, old.recallP50)} / ${ratio(now.recallP50Batched, old.recallP50Batched)} / ${ratio(now.recallMean, old.recallMean)}`);
    for (const [name, a, b] of [["lexical", lex, old], ["semantic", now, oldNow]] as const) {
      console.log(`  ${name}, this index vs before: recall p50 ${ratio(a.recallP50, b.recallP50)}, recall mean ${ratio(a.recallMean, b.recallMean)}, scan mean ${ratio(a.scanMean, b.scanMean)}`);
    }
  }
  console.log(`  budget: p50 of 10 ≤ ×${BUDGET_RATIO} of lexical ${old ? "on the index before" : "on this index (pass --before=<dir> for the index before)"}: ${met}`);
}

const semanticWorkerd = workerd.get("semantic")!;
const at10k = semanticWorkerd.find((r) => r.size === 10_000);
if (at10k) console.log(`\ngoal: p50 under ${TARGET_P50_MS} ms at 10k in workerd → ${at10k.recallP50.toFixed(2)} ms: ${at10k.recallP50 < TARGET_P50_MS ? "met" : "MISSED"}`);
const bytesPerMemory = semanticWorkerd.at(-1)!.matrixBytes / semanticWorkerd.at(-1)!.size;
const byLatency = sizeAtTarget(semanticWorkerd);
const byMemory = MATRIX_BUDGET_BYTES / bytesPerMemory;
const switchAt = Math.floor(Math.min(byLatency, byMemory) / 10_000) * 10_000;
console.log(
  `recall (mean) reaches ${TARGET_P50_MS} ms at ~${Number.isFinite(byLatency) ? n(Math.round(byLatency / 1000) * 1000) : "∞"} memories; ` +
    `the vector matrix reaches ${MATRIX_BUDGET_BYTES / 1048576} MB at ~${n(Math.round(byMemory / 1000) * 1000)}.`,
);
console.log(`switch point for the docs: beyond ~${n(switchAt)} memories per motebit, bind AI + VECTORIZE (Workers AI embeddings in Vectorize).`);
