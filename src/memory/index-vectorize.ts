// The scale path's vector index: a Cloudflare Vectorize binding. One namespace per motebit (vector ids
// are global to a Vectorize index; the namespace is what keeps one motebit's query from ever matching
// another's vectors). Scope and sensitivity ride along as metadata so the filter is applied by Vectorize
// before topK is taken — which needs string metadata indexes on "scope" and "sensitivity":
//   wrangler vectorize create-metadata-index <index> --property-name=scope --type=string
//   wrangler vectorize create-metadata-index <index> --property-name=sensitivity --type=string
// The binding is described structurally so src/ stays free of platform types.
import type { VectorFilter, VectorIndex, VectorMatch } from "../ports.js";
import { sha256Hex, utf8 } from "../protocol/index.js";

type MetadataValue = string | number | boolean;

export interface VectorizeBinding {
  upsert(vectors: { id: string; values: Float32Array | number[]; namespace?: string; metadata?: Record<string, MetadataValue> }[]): Promise<unknown>;
  query(
    vector: Float32Array | number[],
    options: {
      topK?: number;
      namespace?: string;
      filter?: Record<string, MetadataValue | Record<string, MetadataValue | MetadataValue[]>>;
      returnValues?: boolean;
      returnMetadata?: boolean | "none" | "indexed" | "all";
    },
  ): Promise<{ matches: { id: string; score: number }[]; count?: number }>;
  deleteByIds(ids: string[]): Promise<unknown>;
}

/** Vectorize limits for a Workers binding. */
export const VECTORIZE_MAX_UPSERT_BATCH = 1000;
export const VECTORIZE_MAX_TOPK = 100; // without values or full metadata, which recall never asks for
const MAX_KEY_BYTES = 64; // namespace names, and the indexed prefix of a string metadata value

export class VectorizeIndex implements VectorIndex {
  readonly id: string;
  private readonly binding: VectorizeBinding;
  private readonly namespace: string;
  private readonly batchSize: number;

  constructor(o: { binding: VectorizeBinding; namespace: string; batchSize?: number }) {
    if (typeof o.namespace !== "string" || o.namespace.length === 0 || utf8(o.namespace).length > MAX_KEY_BYTES) {
      throw new Error(`VectorizeIndex: namespace must be 1..${MAX_KEY_BYTES} bytes (the motebit id), got ${JSON.stringify(o.namespace)}`);
    }
    const batch = o.batchSize ?? VECTORIZE_MAX_UPSERT_BATCH;
    if (!Number.isInteger(batch) || batch < 1 || batch > VECTORIZE_MAX_UPSERT_BATCH) {
      throw new Error(`VectorizeIndex: batchSize must be 1..${VECTORIZE_MAX_UPSERT_BATCH}, got ${batch}`);
    }
    this.binding = o.binding;
    this.namespace = o.namespace;
    this.batchSize = batch;
    this.id = `vectorize:${o.namespace}`;
  }

  async upsert(items: { id: string; vector: Float32Array; scope: string; sensitivity: string }[]): Promise<void> {
    for (let i = 0; i < items.length; i += this.batchSize) {
      const batch = await Promise.all(
        items.slice(i, i + this.batchSize).map(async (it) => ({
          id: it.id,
          values: it.vector,
          namespace: this.namespace,
          metadata: { scope: await scopeKey(it.scope), sensitivity: it.sensitivity },
        })),
      );
      await this.binding.upsert(batch);
    }
  }

  async delete(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += this.batchSize) await this.binding.deleteByIds(ids.slice(i, i + this.batchSize));
  }

  async query(vector: Float32Array, topK: number, filter?: VectorFilter): Promise<VectorMatch[]> {
    const k = Math.min(VECTORIZE_MAX_TOPK, Math.max(0, Math.floor(topK)));
    // An empty allowlist means nothing may match; $in: [] is not something to send and hope about.
    if (k === 0 || filter?.scopes?.length === 0 || filter?.sensitivities?.length === 0) return [];
    const where: Record<string, Record<string, MetadataValue[]>> = {};
    if (filter?.scopes) where.scope = { $in: await Promise.all(filter.scopes.map(scopeKey)) };
    if (filter?.sensitivities) where.sensitivity = { $in: [...filter.sensitivities] };
    const res = await this.binding.query(vector, {
      topK: k,
      namespace: this.namespace,
      ...(Object.keys(where).length ? { filter: where } : {}),
      returnValues: false,
      returnMetadata: "none",
    });
    return res.matches.map((m) => ({ id: m.id, score: m.score }));
  }
}

/**
 * Vectorize indexes only the first 64 bytes of a string metadata value, so two long scopes sharing a prefix
 * would filter as one. Short scopes go as they are (readable in the dashboard); longer ones as a digest.
 */
export async function scopeKey(scope: string): Promise<string> {
  if (utf8(scope).length <= MAX_KEY_BYTES) return scope;
  return "#" + (await sha256Hex(scope)).slice(0, MAX_KEY_BYTES - 1);
}
