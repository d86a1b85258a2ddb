// The measurement both runtimes run: grow one store to each size with remember() (timing the writes),
// then time recall() end to end and the embedded index scan alone. Platform-neutral, like src/.
import { EmbeddedIndex } from "../../src/memory/index-embedded.js";
import type { MemoryStore } from "../../src/memory/store.js";
import { makeCorpus, percentile } from "./corpus.js";

export interface StepResult {
  size: number;
  rememberPerSec: number;
  recallP50: number;
  recallP99: number;
  /** From the total time: workerd's clock ticks in whole milliseconds, so the mean carries the fraction. */
  recallMean: number;
  /** The median of the per-recall mean of batches of 10 recalls timed back to back: a median below workerd's tick. */
  recallP50Batched: number;
  scanMean: number;
  scanP50: number;
  scanP99: number;
  /** Bytes of the in-object vector matrix at this size. */
  matrixBytes: number;
}

export class MemoryBench {
  private readonly corpus: ReturnType<typeof makeCorpus>;
  private readonly contents: string[] = [];

  /** words: the corpus vocabulary (default: made-up words). */
  constructor(private readonly store: MemoryStore, words?: readonly string[]) {
    this.corpus = makeCorpus(7, words);
  }

  async step(size: number, queries: number): Promise<StepResult> {
    const store = this.store;
    const start = performance.now();
    const before = this.contents.length;
    while (this.contents.length < size) {
      const content = this.corpus.memory(this.contents.length);
      // A tenth of the memories belong to peers, so the scope filter does real work.
      const scope = this.contents.length % 10 === 0 ? `peer:agent-${this.contents.length % 7}` : "owner";
      await store.remember({ content, sensitivity: this.contents.length % 5 === 0 ? "personal" : "none", provenance: "owner", scope });
      this.contents.push(content);
    }
    const rememberPerSec = ((this.contents.length - before) / (performance.now() - start)) * 1000;

    const index = store.index as EmbeddedIndex;
    // Warm-up: the first recall after construction loads the matrix and runs repair/purge.
    await store.recall({ query: "warm up", scopes: ["owner"] });
    const nextQuery = () => this.corpus.query(this.contents[this.corpus.pick(this.contents.length)]);
    const recallOne = (query: string) =>
      store.recall({ query, scopes: ["owner"], excludeSensitivities: ["medical", "financial", "secret"], limit: 10 });
    const recall: number[] = [];
    const scan: number[] = [];
    for (let q = 0; q < queries; q++) {
      const query = nextQuery();
      const t0 = performance.now();
      await recallOne(query);
      recall.push(performance.now() - t0);
      const [v] = await store.embedder.embed([query]);
      const t1 = performance.now();
      index.querySync(v, 50, { scopes: ["owner"], sensitivities: ["none", "personal"] });
      scan.push(performance.now() - t1);
    }
    // workerd's clock moves in whole milliseconds, so a single recall of about 1 ms reads 1 or 2 and its median
    // flips between them; BATCH timed together carry the fraction.
    const BATCH = 10;
    const batched: number[] = [];
    for (let b = 0; b < Math.ceil(queries / BATCH); b++) {
      const batch = Array.from({ length: BATCH }, nextQuery);
      const t0 = performance.now();
      for (const query of batch) await recallOne(query);
      batched.push((performance.now() - t0) / BATCH);
    }
    batched.sort((a, b) => a - b);
    recall.sort((a, b) => a - b);
    scan.sort((a, b) => a - b);
    return {
      size,
      rememberPerSec,
      recallP50: percentile(recall, 50),
      recallP99: percentile(recall, 99),
      recallMean: recall.reduce((a, b) => a + b, 0) / recall.length,
      recallP50Batched: percentile(batched, 50),
      scanMean: scan.reduce((a, b) => a + b, 0) / scan.length,
      scanP50: percentile(scan, 50),
      scanP99: percentile(scan, 99),
      matrixBytes: index.length * store.embedder.dimensions * 4,
    };
  }
}
