// An in-memory Vectorize (V2) index with the semantics code can observe through the binding:
// one id space per index (namespaces are an attribute, not a partition), metadata filters that only
// see properties with a metadata index (string values compared on their first 64 bytes), topK limits
// that depend on what is returned, batch limits, dimension checks, and mutations that are applied
// immediately or — like the real service — only later (consistency: "eventual", then flush()).
// Plain TypeScript so Node tests can use it directly; vectorize-double.ts exposes it as a service binding.

type MetadataValue = string | number | boolean;
type Metadata = Record<string, MetadataValue>;
interface StoredVector {
  id: string;
  values: Float32Array;
  namespace?: string;
  metadata?: Metadata;
}
export interface SimVectorizeConfig {
  dimensions: number;
  metric?: "cosine" | "dot-product" | "euclidean";
  /** Properties with a metadata index (created with `wrangler vectorize create-metadata-index`). */
  metadataIndexes?: string[];
  consistency?: "immediate" | "eventual";
}

const MAX_ID_BYTES = 64;
const MAX_NAMESPACE_BYTES = 64;
const MAX_UPSERT_BATCH = 1000;
const MAX_TOPK = 100;
const MAX_TOPK_WITH_VALUES_OR_METADATA = 20;
const MAX_METADATA_BYTES = 10 * 1024;
const MAX_FILTER_BYTES = 2048;
const INDEXED_STRING_BYTES = 64;
const OPS = new Set(["$eq", "$ne", "$in", "$nin", "$lt", "$lte", "$gt", "$gte"]);
const enc = new TextEncoder();
const dec = new TextDecoder();

export interface SimCalls {
  upsert: number[];
  insert: number[];
  query: { topK: number; namespace?: string; filter?: unknown; returnMetadata?: unknown; returnValues?: unknown }[];
  deleteByIds: number[];
}

export class SimVectorize {
  readonly config: Required<SimVectorizeConfig>;
  private vectors = new Map<string, StoredVector>();
  private pending: (() => void)[] = [];
  private mutation = 0;
  readonly calls: SimCalls = { upsert: [], insert: [], query: [], deleteByIds: [] };

  constructor(config: SimVectorizeConfig) {
    this.config = {
      dimensions: config.dimensions,
      metric: config.metric ?? "cosine",
      metadataIndexes: config.metadataIndexes ?? [],
      consistency: config.consistency ?? "immediate",
    };
  }

  async upsert(vectors: unknown): Promise<{ mutationId: string }> {
    const list = this.checkBatch(vectors, "upsert");
    this.calls.upsert.push(list.length);
    return this.mutate(() => {
      for (const v of list) this.vectors.set(v.id, v);
    });
  }

  async insert(vectors: unknown): Promise<{ mutationId: string }> {
    const list = this.checkBatch(vectors, "insert");
    this.calls.insert.push(list.length);
    return this.mutate(() => {
      for (const v of list) if (!this.vectors.has(v.id)) this.vectors.set(v.id, v);
    });
  }

  async deleteByIds(ids: unknown): Promise<{ mutationId: string }> {
    if (!Array.isArray(ids) || ids.some((id) => typeof id !== "string")) throw new Error("VECTOR_DELETE_ERROR: ids must be an array of strings");
    this.calls.deleteByIds.push(ids.length);
    return this.mutate(() => {
      for (const id of ids as string[]) this.vectors.delete(id);
    });
  }

  async getByIds(ids: string[]): Promise<{ id: string; values: number[]; namespace?: string; metadata?: Metadata }[]> {
    return ids.flatMap((id) => {
      const v = this.vectors.get(id);
      return v ? [{ id: v.id, values: Array.from(v.values), namespace: v.namespace, metadata: v.metadata }] : [];
    });
  }

  async query(
    vector: unknown,
    options: { topK?: number; namespace?: string; filter?: Record<string, unknown>; returnValues?: boolean; returnMetadata?: boolean | "none" | "indexed" | "all" } = {},
  ): Promise<{ count: number; matches: { id: string; score: number; namespace?: string; values?: number[]; metadata?: Metadata }[] }> {
    const q = toFloat32(vector);
    if (!q || q.length !== this.config.dimensions) {
      throw new Error(`VECTOR_QUERY_ERROR (code = 40006): invalid query vector, expected ${this.config.dimensions} dimensions, and got ${q?.length ?? "no"} dimensions`);
    }
    const topK = options.topK ?? 5;
    const metadataLevel = options.returnMetadata === true ? "all" : options.returnMetadata === false || options.returnMetadata === undefined ? "none" : options.returnMetadata;
    const cap = options.returnValues || metadataLevel === "all" ? MAX_TOPK_WITH_VALUES_OR_METADATA : MAX_TOPK;
    if (!Number.isInteger(topK) || topK < 1 || topK > cap) {
      throw new Error(`VECTOR_QUERY_ERROR (code = 40025): invalid topK ${topK}, must be between 1 and ${cap} for this query`);
    }
    this.calls.query.push({ topK, namespace: options.namespace, filter: options.filter, returnMetadata: options.returnMetadata, returnValues: options.returnValues });
    const match = options.filter ? this.compileFilter(options.filter) : () => true;
    const scored: { v: StoredVector; score: number }[] = [];
    for (const v of this.vectors.values()) {
      if (options.namespace !== undefined && v.namespace !== options.namespace) continue;
      if (!match(v)) continue;
      scored.push({ v, score: this.score(q, v.values) });
    }
    // Cosine and dot-product: higher is closer; euclidean: lower is closer.
    scored.sort((a, b) => (this.config.metric === "euclidean" ? a.score - b.score : b.score - a.score));
    const matches = scored.slice(0, topK).map(({ v, score }) => ({
      id: v.id,
      score,
      ...(v.namespace !== undefined ? { namespace: v.namespace } : {}),
      ...(options.returnValues ? { values: Array.from(v.values) } : {}),
      ...(metadataLevel === "all" && v.metadata ? { metadata: { ...v.metadata } } : {}),
      ...(metadataLevel === "indexed" && v.metadata ? { metadata: this.indexedOnly(v.metadata) } : {}),
    }));
    return { count: matches.length, matches };
  }

  async describe(): Promise<{ dimensions: number; vectorCount: number; metric: string; processedUpToMutation: number }> {
    return { dimensions: this.config.dimensions, vectorCount: this.vectors.size, metric: this.config.metric, processedUpToMutation: this.mutation - this.pending.length };
  }

  /** Applies queued mutations (consistency "eventual"); the real service does this within seconds. */
  flush(): number {
    const n = this.pending.length;
    for (const apply of this.pending.splice(0)) apply();
    return n;
  }

  /** Every (namespace, id) currently stored, for assertions. */
  snapshot(): { id: string; namespace?: string; metadata?: Metadata }[] {
    return [...this.vectors.values()].map((v) => ({ id: v.id, namespace: v.namespace, metadata: v.metadata }));
  }

  private mutate(apply: () => void): { mutationId: string } {
    this.mutation++;
    if (this.config.consistency === "immediate") apply();
    else this.pending.push(apply);
    return { mutationId: `mutation-${this.mutation}` };
  }

  private checkBatch(vectors: unknown, op: string): StoredVector[] {
    if (!Array.isArray(vectors)) throw new Error(`VECTOR_${op.toUpperCase()}_ERROR: expected an array of vectors`);
    if (vectors.length > MAX_UPSERT_BATCH) throw new Error(`VECTOR_${op.toUpperCase()}_ERROR (code = 40007): batch of ${vectors.length} vectors exceeds the limit of ${MAX_UPSERT_BATCH}`);
    return vectors.map((raw) => {
      const v = raw as { id?: unknown; values?: unknown; namespace?: unknown; metadata?: unknown };
      if (typeof v.id !== "string" || v.id.length === 0 || enc.encode(v.id).length > MAX_ID_BYTES) {
        throw new Error(`VECTOR_${op.toUpperCase()}_ERROR (code = 40008): invalid vector id ${JSON.stringify(v.id)} (1..${MAX_ID_BYTES} bytes)`);
      }
      const values = toFloat32(v.values);
      if (!values || values.length !== this.config.dimensions) {
        throw new Error(
          `VECTOR_${op.toUpperCase()}_ERROR (code = 40012): invalid vector for id="${v.id}", expected ${this.config.dimensions} dimensions, and got ${values?.length ?? "no"} dimensions`,
        );
      }
      if (v.namespace !== undefined && (typeof v.namespace !== "string" || enc.encode(v.namespace).length > MAX_NAMESPACE_BYTES)) {
        throw new Error(`VECTOR_${op.toUpperCase()}_ERROR: invalid namespace ${JSON.stringify(v.namespace)} (at most ${MAX_NAMESPACE_BYTES} bytes)`);
      }
      let metadata: Metadata | undefined;
      if (v.metadata !== undefined) {
        if (typeof v.metadata !== "object" || v.metadata === null || enc.encode(JSON.stringify(v.metadata)).length > MAX_METADATA_BYTES) {
          throw new Error(`VECTOR_${op.toUpperCase()}_ERROR: metadata must be an object of at most ${MAX_METADATA_BYTES} bytes`);
        }
        metadata = { ...(v.metadata as Metadata) };
      }
      return { id: v.id, values, namespace: v.namespace as string | undefined, metadata };
    });
  }

  private compileFilter(filter: Record<string, unknown>): (v: StoredVector) => boolean {
    if (enc.encode(JSON.stringify(filter)).length > MAX_FILTER_BYTES) throw new Error(`VECTOR_QUERY_ERROR: filter exceeds ${MAX_FILTER_BYTES} bytes`);
    const tests: ((v: StoredVector) => boolean)[] = [];
    for (const [key, cond] of Object.entries(filter)) {
      const ops: Record<string, unknown> =
        cond !== null && typeof cond === "object" && !Array.isArray(cond) ? (cond as Record<string, unknown>) : { $eq: cond };
      for (const [op, operand] of Object.entries(ops)) {
        if (!OPS.has(op)) throw new Error(`VECTOR_QUERY_ERROR: unsupported filter operator ${op}`);
        if ((op === "$in" || op === "$nin") && !Array.isArray(operand)) throw new Error(`VECTOR_QUERY_ERROR: ${op} needs an array`);
        // A property without a metadata index is not filterable: no vector matches on it.
        const indexed = this.config.metadataIndexes.includes(key);
        tests.push((v) => {
          if (!indexed) return false;
          const raw = v.metadata?.[key];
          const value = typeof raw === "string" ? indexedPrefix(raw) : raw;
          const norm = (x: unknown) => (typeof x === "string" ? indexedPrefix(x) : x);
          switch (op) {
            case "$eq": return value === norm(operand);
            case "$ne": return value !== norm(operand);
            case "$in": return (operand as unknown[]).map(norm).includes(value);
            case "$nin": return !(operand as unknown[]).map(norm).includes(value);
            default: {
              if (value === undefined) return false;
              const a = value as string | number, b = norm(operand) as string | number;
              return op === "$lt" ? a < b : op === "$lte" ? a <= b : op === "$gt" ? a > b : a >= b;
            }
          }
        });
      }
    }
    return (v) => tests.every((t) => t(v));
  }

  private indexedOnly(m: Metadata): Metadata {
    return Object.fromEntries(Object.entries(m).filter(([k]) => this.config.metadataIndexes.includes(k)));
  }

  private score(a: Float32Array, b: Float32Array): number {
    let dot = 0, na = 0, nb = 0, sq = 0;
    for (let i = 0; i < a.length; i++) {
      dot += a[i] * b[i];
      na += a[i] * a[i];
      nb += b[i] * b[i];
      sq += (a[i] - b[i]) ** 2;
    }
    if (this.config.metric === "dot-product") return dot;
    if (this.config.metric === "euclidean") return Math.sqrt(sq);
    return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
  }
}

function toFloat32(v: unknown): Float32Array | null {
  if (v instanceof Float32Array) return new Float32Array(v);
  if (v instanceof Float64Array || (Array.isArray(v) && v.every((x) => typeof x === "number"))) return Float32Array.from(v as ArrayLike<number>);
  return null;
}

/** Vectorize indexes the first 64 bytes of a string, cut on a UTF-8 character boundary. */
function indexedPrefix(s: string): string {
  const b = enc.encode(s);
  if (b.length <= INDEXED_STRING_BYTES) return s;
  let end = INDEXED_STRING_BYTES;
  while (end > 0 && (b[end] & 0xc0) === 0x80) end--;
  return dec.decode(b.subarray(0, end));
}
