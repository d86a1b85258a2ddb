// The scale path's embedder: Workers AI through the `AI` binding. Inputs go in batches of at most 100
// texts (the model's batch limit); outputs are L2-normalised here so cosine is a dot product everywhere.
import type { Embedder } from "../ports.js";
import { toUnitLength } from "./unit-vector.js";

export interface WorkersAiBinding {
  run(model: string, inputs: Record<string, unknown>): Promise<unknown>;
}

export const WORKERS_AI_EMBEDDING_MODEL = "@cf/baai/bge-base-en-v1.5";
export const WORKERS_AI_EMBEDDING_DIMENSIONS = 768;
export const WORKERS_AI_MAX_BATCH = 100;
// The model reads at most 512 tokens (~2,000 characters of English); send no more than it can read.
export const WORKERS_AI_MAX_CHARS = 2000;

export class WorkersAiEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly ai: WorkersAiBinding;
  private readonly model: string;

  constructor(o: { ai: WorkersAiBinding; model?: string; dimensions?: number }) {
    this.ai = o.ai;
    this.model = o.model ?? WORKERS_AI_EMBEDDING_MODEL;
    this.dimensions = o.dimensions ?? WORKERS_AI_EMBEDDING_DIMENSIONS;
    this.id = `workers-ai:${this.model}`;
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const out: Float32Array[] = [];
    for (let i = 0; i < texts.length; i += WORKERS_AI_MAX_BATCH) {
      const batch = texts.slice(i, i + WORKERS_AI_MAX_BATCH).map(clip);
      const res = (await this.ai.run(this.model, { text: batch })) as { data?: unknown } | null;
      const data = res?.data;
      if (!Array.isArray(data) || data.length !== batch.length) {
        throw new Error(`Workers AI ${this.model} returned ${Array.isArray(data) ? data.length : "no"} embeddings for ${batch.length} texts`);
      }
      for (const row of data) out.push(this.normalised(row));
    }
    return out;
  }

  private normalised(row: unknown): Float32Array {
    if (!Array.isArray(row) || row.length !== this.dimensions) {
      throw new Error(`Workers AI ${this.model} returned an embedding of ${Array.isArray(row) ? row.length : "no"} dimensions, expected ${this.dimensions}`);
    }
    const v = Float32Array.from(row as number[]);
    if (!toUnitLength(v)) throw new Error(`Workers AI ${this.model} returned a non-finite embedding value`);
    return v;
  }
}

function clip(t: string): string {
  // Never cut a surrogate pair in half.
  return t.length <= WORKERS_AI_MAX_CHARS ? t : t.slice(0, WORKERS_AI_MAX_CHARS).replace(/[\uD800-\uDBFF]$/, "");
}
