// Two embedders as one: a sentence encoder for meaning and the word-table embedder for exact names, ids and
// numbers. Each part is a unit vector scaled by the square root of its share, so the dot product of two combined
// vectors is exactly  share · encoder cosine + (1 − share) · table cosine,  and the embedded index (a dot product
// per row) scores memories by that rule with nothing else changed. The id names both parts and the share, so a
// change of either re-embeds every stored memory before recall compares anything (a mixed index never ranks).
import type { Embedder } from "../ports.js";
import { toUnitLength } from "./unit-vector.js";

/** The encoder's weight in the combined cosine, chosen on the recall bench's tuning set (docs/memory.md). */
export const ENCODER_SHARE = 0.7;

export class CombinedEmbedder implements Embedder {
  readonly id: string;
  readonly dimensions: number;
  private readonly encoder: Embedder;
  private readonly table: Embedder;
  private readonly share: number;

  constructor(o: { encoder: Embedder; table: Embedder; encoderShare?: number }) {
    const share = o.encoderShare ?? ENCODER_SHARE;
    if (!(share >= 0 && share <= 1)) throw new Error(`CombinedEmbedder: encoderShare must be in 0..1, got ${share}`);
    this.encoder = o.encoder;
    this.table = o.table;
    this.share = share;
    this.dimensions = o.encoder.dimensions + o.table.dimensions;
    this.id = `${o.encoder.id}+${o.table.id}@${share}`;
  }

  /** The encoder's load, when it has one (the table is always ready). */
  whenReady(onProgress?: (elapsedMs: number, message: string) => void): Promise<void> {
    return this.encoder.whenReady?.(onProgress) ?? Promise.resolve();
  }

  async embed(texts: string[]): Promise<Float32Array[]> {
    const [meaning, wording] = await Promise.all([this.encoder.embed(texts), this.table.embed(texts)]);
    const a = Math.sqrt(this.share);
    const b = Math.sqrt(1 - this.share);
    return texts.map((_, i) => {
      const out = new Float32Array(this.dimensions);
      const e = meaning[i];
      const t = wording[i];
      if (e.length !== this.encoder.dimensions || t.length !== this.table.dimensions) {
        throw new Error(`CombinedEmbedder: parts returned ${e.length} + ${t.length} dimensions, expected ${this.encoder.dimensions} + ${this.table.dimensions}`);
      }
      for (let j = 0; j < e.length; j++) out[j] = e[j] * a;
      for (let j = 0; j < t.length; j++) out[e.length + j] = t[j] * b;
      // A part that came back zero (no text at all) leaves the other; keep the whole unit length.
      toUnitLength(out);
      return out;
    });
  }
}
