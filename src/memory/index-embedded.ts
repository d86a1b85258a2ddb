// The embedded vector index: the vectors are the embedding column of memory_nodes, searched in-process.
// On first use it loads every live vector of the current embedder into one column-major matrix
// (column-matrix.ts) and keeps it in step with upsert/delete, so a query is one pass per non-zero query
// dimension scoring every row, then the scope/sensitivity filter and the top k over those scores.
// Nothing here is the source of truth: after a restart the cache is simply rebuilt from the rows.
import type { SqlPort, SqlValue, VectorFilter, VectorIndex, VectorMatch } from "../ports.js";
import { ColumnMatrix } from "./column-matrix.js";
import { SENSITIVITIES } from "./sensitivity.js";
import { blobToVector } from "./vector-bytes.js";

const LOAD_PAGE = 2000;
const NO_SENSITIVITY = 255;

export class EmbeddedIndex implements VectorIndex {
  readonly id = "embedded";
  private readonly sql: SqlPort;
  private readonly embedderId: string;
  private readonly dims: number;

  private loaded = false;
  private size = 0;
  private matrix: ColumnMatrix;
  /** Scratch for querySync: one score per slot (queries are synchronous, so one buffer serves them all). */
  private scores = new Float64Array(0);
  private ids: string[] = [];
  private scopeOf = new Int32Array(0);
  private sensitivityOf = new Uint8Array(0);
  private slotOf = new Map<string, number>();
  private scopeCodes = new Map<string, number>();

  constructor(o: { sql: SqlPort; embedderId: string; dimensions: number }) {
    this.sql = o.sql;
    this.embedderId = o.embedderId;
    this.dims = o.dimensions;
    this.matrix = new ColumnMatrix(this.dims);
  }

  /** How many vectors the cache holds (loads it if needed). */
  get length(): number {
    this.ensureLoaded();
    return this.size;
  }

  async upsert(items: { id: string; vector: Float32Array; scope: string; sensitivity: string }[]): Promise<void> {
    // Not loaded yet: the vectors are already in their rows and the lazy load will read them.
    if (!this.loaded) return;
    for (const item of items) this.put(item.id, item.vector, item.scope, item.sensitivity);
  }

  async delete(ids: string[]): Promise<void> {
    if (!this.loaded) return;
    for (const id of ids) this.remove(id);
  }

  async query(vector: Float32Array, topK: number, filter?: VectorFilter): Promise<VectorMatch[]> {
    return this.querySync(vector, topK, filter);
  }

  querySync(vector: Float32Array, topK: number, filter?: VectorFilter): VectorMatch[] {
    if (vector.length !== this.dims) throw new Error(`EmbeddedIndex: query vector has ${vector.length} dimensions, expected ${this.dims}`);
    const k = Math.max(0, Math.floor(topK));
    if (k === 0) return [];
    this.ensureLoaded();
    const scopeOk = this.scopeMask(filter?.scopes);
    const sensitivityOk = sensitivityMask(filter?.sensitivities);
    if (scopeOk === "none" || sensitivityOk === "none") return [];

    const scores = this.scores;
    this.matrix.dotAll(vector, this.size, scores);
    // Best k so far, kept sorted descending; a candidate only costs a comparison unless it beats the worst.
    // Equal scores keep slot order (the earlier slot first), as the row scan before the column layout did.
    const bestScore = new Float64Array(k).fill(-Infinity);
    const bestSlot = new Int32Array(k).fill(-1);
    let found = 0;
    for (let slot = 0; slot < this.size; slot++) {
      if (scopeOk !== "all" && scopeOk[this.scopeOf[slot]] !== 1) continue;
      if (sensitivityOk !== "all" && sensitivityOk[this.sensitivityOf[slot]] !== 1) continue;
      const score = scores[slot];
      if (found === k && score <= bestScore[k - 1]) continue;
      let i = found < k ? found++ : k - 1;
      while (i > 0 && bestScore[i - 1] < score) {
        bestScore[i] = bestScore[i - 1];
        bestSlot[i] = bestSlot[i - 1];
        i--;
      }
      bestScore[i] = score;
      bestSlot[i] = slot;
    }
    const out: VectorMatch[] = [];
    for (let i = 0; i < found; i++) out.push({ id: this.ids[bestSlot[i]], score: bestScore[i] });
    return out;
  }

  /** Drops the cache; the next use reloads from rows (what a restart does). */
  invalidate(): void {
    this.loaded = false;
    this.size = 0;
    this.matrix = new ColumnMatrix(this.dims);
    this.scores = new Float64Array(0);
    this.ids = [];
    this.scopeOf = new Int32Array(0);
    this.sensitivityOf = new Uint8Array(0);
    this.slotOf.clear();
    this.scopeCodes.clear();
  }

  private ensureLoaded(): void {
    if (this.loaded) return;
    const [{ n }] = this.sql.all<{ n: number }>(
      `SELECT COUNT(*) AS n FROM memory_nodes WHERE forgotten_at IS NULL AND embedding IS NOT NULL AND embedder_id = ?`,
      this.embedderId,
    );
    this.grow(Math.max(64, Math.ceil(Number(n) * 1.1)));
    // Page by rowid so a large store never materialises every row (and every blob) at once.
    let after = -1;
    for (;;) {
      const rows = this.sql.all<{ rid: number; id: string; scope: string; sensitivity: string; embedding: SqlValue }>(
        `SELECT rowid AS rid, id, scope, sensitivity, embedding FROM memory_nodes
          WHERE rowid > ? AND forgotten_at IS NULL AND embedding IS NOT NULL AND embedder_id = ?
          ORDER BY rowid LIMIT ${LOAD_PAGE}`,
        after,
        this.embedderId,
      );
      for (const r of rows) {
        const v = blobToVector(r.embedding);
        if (v && v.length === this.dims) this.put(r.id, v, r.scope, r.sensitivity);
      }
      if (rows.length < LOAD_PAGE) break;
      after = Number(rows[rows.length - 1].rid);
    }
    this.loaded = true;
  }

  private put(id: string, vector: Float32Array, scope: string, sensitivity: string): void {
    if (vector.length !== this.dims) throw new Error(`EmbeddedIndex: vector for ${id} has ${vector.length} dimensions, expected ${this.dims}`);
    let slot = this.slotOf.get(id);
    if (slot === undefined) {
      if (this.size === this.matrix.capacity) this.grow(Math.ceil(this.matrix.capacity * 1.5) + 64);
      slot = this.size++;
      this.slotOf.set(id, slot);
    }
    this.ids[slot] = id;
    this.matrix.setRow(slot, vector);
    this.scopeOf[slot] = this.scopeCode(scope);
    const s = SENSITIVITIES.indexOf(sensitivity as (typeof SENSITIVITIES)[number]);
    this.sensitivityOf[slot] = s < 0 ? NO_SENSITIVITY : s;
  }

  // Swap-remove keeps the matrix dense, so scans never skip holes.
  private remove(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot === undefined) return;
    const last = this.size - 1;
    if (slot !== last) {
      const lastId = this.ids[last];
      this.matrix.copyRow(last, slot);
      this.ids[slot] = lastId;
      this.scopeOf[slot] = this.scopeOf[last];
      this.sensitivityOf[slot] = this.sensitivityOf[last];
      this.slotOf.set(lastId, slot);
    }
    this.slotOf.delete(id);
    this.ids.length = last;
    this.size = last;
  }

  private grow(capacity: number): void {
    if (capacity <= this.matrix.capacity) return;
    this.matrix.grow(capacity, this.size);
    this.scores = new Float64Array(capacity);
    const scopeOf = new Int32Array(capacity);
    scopeOf.set(this.scopeOf.subarray(0, this.size));
    const sensitivityOf = new Uint8Array(capacity);
    sensitivityOf.set(this.sensitivityOf.subarray(0, this.size));
    this.scopeOf = scopeOf;
    this.sensitivityOf = sensitivityOf;
  }

  private scopeCode(scope: string): number {
    let code = this.scopeCodes.get(scope);
    if (code === undefined) {
      code = this.scopeCodes.size;
      this.scopeCodes.set(scope, code);
    }
    return code;
  }

  private scopeMask(scopes: string[] | undefined): Uint8Array | "all" | "none" {
    if (scopes === undefined) return "all";
    const mask = new Uint8Array(this.scopeCodes.size);
    let any = false;
    for (const s of scopes) {
      const code = this.scopeCodes.get(s);
      if (code !== undefined) {
        mask[code] = 1;
        any = true;
      }
    }
    return any ? mask : "none";
  }
}

function sensitivityMask(sensitivities: string[] | undefined): Uint8Array | "all" | "none" {
  if (sensitivities === undefined) return "all";
  const mask = new Uint8Array(256);
  let any = false;
  for (const s of sensitivities) {
    const i = SENSITIVITIES.indexOf(s as (typeof SENSITIVITIES)[number]);
    if (i >= 0) {
      mask[i] = 1;
      any = true;
    }
  }
  return any ? mask : "none";
}
