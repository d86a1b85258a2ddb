// The word-vector table behind the semantic embedder: data the host supplies (data/word-table.json, read through the
// WordTableSource it provides at start-up), loaded and decoded on the first embed (not at start-up), so a host that
// never embeds never pays for it: a 3 MB read (40–100 ms in Node, measured) and a decode (~50 ms, ~20 MB) once,
// then a Map lookup per word. One table a process, so the source and the table are the process's.
import type { WordTableData, WordTableSource } from "../ports.js";

export interface WordTable {
  readonly dimensions: number;
  /** Row of a word, in corpus-frequency order (0 = most frequent); undefined when the word is not in the table. */
  rank(word: string): number | undefined;
  /** Unit-length vectors, row after row. */
  readonly vectors: Float32Array;
}

let source: WordTableSource | null = null;
let table: WordTable | null = null;
let loading: Promise<WordTable> | null = null;

/** The host's way to the word table: set once at start-up (a later call replaces it for loads not yet made). */
export function provideWordTable(s: WordTableSource): void {
  source = s;
}

/** Loads the table once; concurrent callers share one load, and a failed load is retried by the next. */
export function loadWordTable(): Promise<WordTable> {
  if (table) return Promise.resolve(table);
  if (source === null) return Promise.reject(new Error("word table: this host provided none (provideWordTable at start-up)"));
  loading ??= source().then(
    (data) => (table = decode(data)),
    (e: unknown) => {
      loading = null;
      throw e;
    },
  );
  return loading;
}

/** The table if loadWordTable() has finished, else null. */
export function loadedWordTable(): WordTable | null {
  return table;
}

function decode(data: WordTableData): WordTable {
  const words = data.words.split(" ");
  const d = data.dimensions;
  const bytes = atob(data.vectorsBase64);
  if (bytes.length * 2 !== words.length * d) throw new Error(`word table: ${bytes.length} bytes for ${words.length} words × ${d} 4-bit components`);
  const vectors = new Float32Array(words.length * d);
  for (let i = 0; i < words.length; i++) {
    let norm = 0;
    for (let j = 0; j < d; j++) {
      // Two signed 4-bit components a byte, low nibble first.
      const byte = bytes.charCodeAt((i * d + j) >> 1);
      const nibble = j & 1 ? byte >> 4 : byte & 15;
      const x = nibble > 7 ? nibble - 16 : nibble;
      vectors[i * d + j] = x;
      norm += x * x;
    }
    const inv = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    for (let j = 0; j < d; j++) vectors[i * d + j] *= inv;
  }
  const ranks = new Map<string, number>();
  words.forEach((w, i) => ranks.set(w, i));
  return { dimensions: d, vectors, rank: (w) => ranks.get(w) };
}
