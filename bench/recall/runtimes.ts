// Ways of running motebit-local's sentence encoder, against the one it ships (issue #37 asked for at least two):
// TF.js 4.22's plain JavaScript CPU backend and its WebAssembly backend, on the same model files and tokenizer,
// each in a process of its own (runtime-child.cjs), beside @energetic-ai/core's WebAssembly build (shipped).
// TF.js 4.22 is not a dependency of the project: it is installed into .cache/bench-runtimes on first use.
//   npx tsx bench/recall/runtimes.ts
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const CACHE = join(REPO, ".cache", "bench-runtimes");
const TFJS = ["core", "backend-cpu", "backend-wasm", "converter"].map((p) => `@tensorflow/tfjs-${p}@4.22.0`);

if (!existsSync(join(CACHE, "node_modules", "@tensorflow", "tfjs-converter"))) {
  mkdirSync(CACHE, { recursive: true });
  execFileSync("npm", ["install", "--prefix", CACHE, "--no-save", "--no-package-lock", "--no-audit", "--no-fund", ...TFJS], { stdio: ["ignore", "inherit", "inherit"] });
}

const child = fileURLToPath(new URL("./runtime-child.cjs", import.meta.url));
interface Row { way: string; loadMs: number; singleMs: number; batchMs: number }
const rows: Row[] = [];
for (const way of ["shipped", "tfjs-wasm", "tfjs-cpu"]) {
  // Run from local-stdio, where @energetic-ai/* resolve as they do for motebit-local.
  const out = execFileSync(process.execPath, [child, way, CACHE], { cwd: join(REPO, "local-stdio"), encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] });
  rows.push(JSON.parse(out.trim().split("\n").pop()!) as Row);
}
const base = rows[0];
console.log("USE-lite runtime                              | load ms | ms/text, one per call | ms/text, batches of 4 | one per call vs shipped");
for (const r of rows) {
  const name = { shipped: "@energetic-ai/core WebAssembly (shipped)", "tfjs-wasm": "TF.js 4.22 WebAssembly backend", "tfjs-cpu": "TF.js 4.22 plain JavaScript CPU backend" }[r.way]!;
  console.log(`${name.padEnd(45)} | ${r.loadMs.toFixed(0).padStart(7)} | ${r.singleMs.toFixed(1).padStart(21)} | ${r.batchMs.toFixed(1).padStart(21)} | ×${(r.singleMs / base.singleMs).toFixed(2)}`);
}
