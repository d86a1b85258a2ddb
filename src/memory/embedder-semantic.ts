// The offline default embedder: meaning from word vectors, exact wording from the lexical embedder, in one
// vector. The first part is a smooth-inverse-frequency average of the words' vectors (Arora et al. 2017: a
// word's weight is a / (a + p(word)), so a common word counts less than a rare one) over a table whose common
// directions were removed, and whose vectors a sentence encoder taught, when it was derived (scripts/word-vectors:
// a sentence's weighted word mean there approaches the encoder's sentence vector); the second is LocalEmbedder's hashed
// n-grams, so names, ids and numbers the table does not know still match. Both parts are unit vectors scaled
// so that cosine = SEMANTIC_SHARE · meaning + (1 − SEMANTIC_SHARE) · wording. Deterministic: the same vector
// in workerd and Node.
import type { Embedder } from "../ports.js";
import { DEFAULT_LOCAL_DIMENSIONS, LocalEmbedder, STOPWORDS } from "./embedder-local.js";
import { toUnitLength } from "./unit-vector.js";
import { loadWordTable, loadedWordTable } from "./word-table.js";

/** Chosen on the recall bench's tuning set (bench/recall); see docs/memory.md for the figures. */
export const SEMANTIC_SHARE = 0.8;
const SIF_A = 3e-4;
// Function words carry no meaning of their own and, in a short question, outweigh the one word that matters
// (dropping them outright measured better than their small SIF weight alone).
const FUNCTION_WORDS: ReadonlySet<string> = new Set([...STOPWORDS, "how", "why", "did"]);
// Words in the source corpus's vocabulary (341k) under Zipf's law: p(rank r) ≈ 1 / ((r + 1) · H), H = ln V + γ.
const ZIPF_H = Math.log(341_479) + 0.5772;
const WORD = /[\p{L}]+/gu;
// Inflections the table may lack at its size: "renewals" → "renewal".
const SUFFIXES = ["s", "es", "ed", "d", "ing", "ly"];

export class SemanticEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly lexical: LocalEmbedder;
  private readonly semanticDims: number;

  private readonly share: number;

  /** semanticShare: the meaning part's weight in cosine, 0..1 (the bench sweeps it; hosts take the default). */
  constructor(o: { semanticShare?: number } = {}) {
    const share = o.semanticShare ?? SEMANTIC_SHARE;
    if (!(share >= 0 && share <= 1)) throw new Error(`SemanticEmbedder: semanticShare must be in 0..1, got ${share}`);
    this.share = share;
    this.lexical = new LocalEmbedder({ dimensions: DEFAULT_LOCAL_DIMENSIONS });
    // Known without decoding the table, so constructing the embedder stays free.
    this.semanticDims = 100;
    this.dimensions = this.semanticDims + this.lexical.dimensions;
    this.id = `local-sif-v4-${this.dimensions}` + (share === SEMANTIC_SHARE ? "" : `-s${share}`);
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    await loadWordTable();
    return texts.map((t) => this.embedOne(t));
  }

  /** Synchronous, so the table must be loaded: any embed() call (even of no texts) loads it. */
  embedOne(text: string): Float32Array {
    const out = new Float32Array(this.dimensions);
    const meaning = out.subarray(0, this.semanticDims);
    this.addWords(meaning, text.normalize("NFKC").toLowerCase());
    toUnitLength(meaning);
    const wording = this.lexical.embedOne(text);
    const a = Math.sqrt(this.share);
    const b = Math.sqrt(1 - this.share);
    for (let i = 0; i < meaning.length; i++) meaning[i] *= a;
    for (let i = 0; i < wording.length; i++) out[this.semanticDims + i] = wording[i] * b;
    // A text with no known word has only its wording part; keep the whole vector unit length.
    toUnitLength(out);
    return out;
  }

  private addWords(into: Float32Array, text: string): void {
    const t = loadedWordTable();
    if (!t) throw new Error("SemanticEmbedder: the word table is not loaded yet; await embed() once before embedOne()");
    if (t.dimensions !== this.semanticDims) throw new Error(`word table has ${t.dimensions} dimensions, expected ${this.semanticDims}`);
    const d = t.dimensions;
    forEachMeaningWord(text, t.rank, (rank, w) => {
      const base = rank * d;
      for (let j = 0; j < d; j++) into[j] += w * t.vectors[base + j];
    });
  }
}

/**
 * Each word of a lowercased text that carries meaning and has a row, with its SIF weight. The word-table
 * derivation (scripts/word-vectors) weighs its training sentences through this too, so both read words alike.
 */
export function forEachMeaningWord(text: string, rank: (w: string) => number | undefined, use: (row: number, weight: number) => void): void {
  for (const match of text.matchAll(WORD)) {
    if (FUNCTION_WORDS.has(match[0])) continue;
    const row = lookup(rank, match[0]);
    if (row === undefined) continue;
    const p = 1 / ((row + 1) * ZIPF_H);
    use(row, SIF_A / (SIF_A + p));
  }
}

function lookup(rank: (w: string) => number | undefined, word: string): number | undefined {
  const direct = rank(word);
  if (direct !== undefined) return direct;
  for (const s of SUFFIXES) {
    if (word.length > s.length + 2 && word.endsWith(s)) {
      const r = rank(word.slice(0, -s.length));
      if (r !== undefined) return r;
    }
  }
  return undefined;
}
