// Memory bench: recall latency (p50/p99) of the embedded index at 1k, 10k and 50k memories inside workerd
// (a Durable Object over its real SQLite, via Miniflare) and remember throughput, with Node
// (node:sqlite) as the reference, each for the semantic default and, as the baseline in the same run, the
// lexical embedder it replaced. Prints how latency grows with size, the default's recall p50 at 10k against the
// baseline's (budget ×1.5), and where to switch to Vectorize.
//   npx tsx bench/memory/run.ts            (about a minute; --quick for 1k/5k only)
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../src/memory/embedder-semantic.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { MemoryBench, type StepResult } from "./bench-core.js";

for (const k of ["WRANGLER_SEND_METRICS", "WRANGLER_SEND_ERROR_REPORTS", "CLOUDFLARE_CF_FETCH_ENABLED"]) process.env[k] ??= "false";

const QUICK = process.argv.includes("--quick");
const SIZES = QUICK ? [1_000, 5_000] : [1_000, 10_000, 50_000];
const QUERIES = QUICK ? 50 : 200;
/** The latency goal at 10k memories, and the line past which the docs send users to Vectorize. */
const TARGET_P50_MS = 20;
/** Keep the vector matrix well inside a Durable Object isolate's 128 MB. */
const MATRIX_BUDGET_BYTES = 32 * 1024 * 1024;

type EmbedderName = "lexical" | "semantic";
const EMBEDDERS: EmbedderName[] = ["lexical", "semantic"];

async function inWorkerd(): Promise<Record<EmbedderName, StepResult[]>> {
  const bundle = await build({
    entryPoints: [fileURLToPath(new URL("./worker.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    external: ["cloudflare:*"],
    write: false,
  });
  const mf = new Miniflare({
    modules: true,
    script: bundle.outputFiles[0].text,
    compatibilityDate: "2026-04-20",
    durableObjects: { BENCH: { className: "BenchObject", useSQLite: true } },
  });
  try {
    const out: Record<EmbedderName, StepResult[]> = { lexical: [], semantic: [] };
    for (const e of EMBEDDERS) {
      for (const size of SIZES) {
        const res = await mf.dispatchFetch(`http://bench/step?embedder=${e}&size=${size}&queries=${QUERIES}`);
        if (!res.ok) throw new Error(`workerd step ${e} ${size}: ${res.status} ${await res.text()}`);
        out[e].push((await res.json()) as StepResult);
        process.stdout.write(".");
      }
    }
    return out;
  } finally {
    await mf.dispose();
  }
}

async function inNode(e: EmbedderName): Promise<StepResult[]> {
  const sql = openSqlite(":memory:");
  const embedder = e === "lexical" ? new LocalEmbedder() : new SemanticEmbedder();
  const store = new MemoryStore({ sql, embedder, index: "embedded", clock: systemClock });
  store.migrate();
  const bench = new MemoryBench(store);
  const out: StepResult[] = [];
  for (const size of SIZES) {
    out.push(await bench.step(size, QUERIES));
    process.stdout.write(".");
  }
  sql.close();
  return out;
}

const ms = (x: number) => x.toFixed(2).padStart(7);
const n = (x: number) => x.toLocaleString("en-US");

function table(name: string, rows: StepResult[]): void {
  console.log(`\n${name}`);
  console.log("  memories | recall p50 | recall p99 | recall mean | scan p50 | scan p99 | scan mean | remember/s | vectors in memory");
  for (const r of rows) {
    console.log(
      `  ${n(r.size).padStart(8)} | ${ms(r.recallP50)} ms | ${ms(r.recallP99)} ms | ${ms(r.recallMean)} ms  | ${ms(r.scanP50)} ms | ${ms(r.scanP99)} ms | ${ms(r.scanMean)} ms | ${Math.round(r.rememberPerSec).toString().padStart(10)} | ${(r.matrixBytes / 1048576).toFixed(1)} MB`,
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
process.stdout.write(`memory bench: ${SIZES.map(n).join(" / ")} memories, ${QUERIES} recalls per size `);
const workerd = await inWorkerd();
const nodeLexical = await inNode("lexical");
const node = await inNode("semantic");
console.log(` done in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
table("workerd (Durable Object, ctx.storage.sql, embedded index) — baseline: lexical local-ngram-v1-256", workerd.lexical);
table("workerd — default: semantic local-sif-v4-356", workerd.semantic);
table("node (node:sqlite in memory) — baseline: lexical", nodeLexical);
table("node — default: semantic", node);

const BUDGET_RATIO = 1.5;
const p50At = (rows: StepResult[], size: number) => rows.find((r) => r.size === size)?.recallP50;
for (const [host, base, now] of [["workerd", workerd.lexical, workerd.semantic], ["node", nodeLexical, node]] as const) {
  const size = SIZES.includes(10_000) ? 10_000 : SIZES.at(-1)!;
  const a = p50At(base, size)!, b = p50At(now, size)!;
  console.log(`\n${host}: recall p50 at ${n(size)}: semantic ${b.toFixed(2)} ms vs lexical ${a.toFixed(2)} ms = ×${(b / a).toFixed(2)} (budget ×${BUDGET_RATIO}: ${b / a <= BUDGET_RATIO ? "met" : "MISSED"})`);
}

const at10k = workerd.semantic.find((r) => r.size === 10_000);
if (at10k) console.log(`\ngoal: p50 under ${TARGET_P50_MS} ms at 10k in workerd → ${at10k.recallP50.toFixed(2)} ms: ${at10k.recallP50 < TARGET_P50_MS ? "met" : "MISSED"}`);
const bytesPerMemory = workerd.semantic.at(-1)!.matrixBytes / workerd.semantic.at(-1)!.size;
const byLatency = sizeAtTarget(workerd.semantic);
const byMemory = MATRIX_BUDGET_BYTES / bytesPerMemory;
const switchAt = Math.floor(Math.min(byLatency, byMemory) / 10_000) * 10_000;
console.log(
  `recall (mean) reaches ${TARGET_P50_MS} ms at ~${Number.isFinite(byLatency) ? n(Math.round(byLatency / 1000) * 1000) : "∞"} memories; ` +
    `the vector matrix reaches ${MATRIX_BUDGET_BYTES / 1048576} MB at ~${n(Math.round(byMemory / 1000) * 1000)}.`,
);
console.log(`switch point for the docs: beyond ~${n(switchAt)} memories per motebit, bind AI + VECTORIZE (Workers AI embeddings in Vectorize).`);
