// The memory store: nodes as rows behind the SQL port, vectors in a pluggable index.
//
// Durability rule: a memory is its row. remember() embeds, writes the row (with its vector and
// indexed = 0) and only then touches the index, marking indexed = 1 when the index confirmed. A crash
// or an index outage between those steps loses nothing: repairIndex() (run lazily before the first
// recall of every store instance, and again after any index failure) re-indexes rows with indexed = 0.
// Deletions owed to the index go through an outbox table written in the same transaction as the row
// change. The index only proposes candidates; every candidate is re-checked against its row (live,
// in scope, allowed sensitivity, not expired) before anything is served.
//
// Visibility is the caller's to express: recall serves exactly the scopes it is given and fails
// closed (no scopes → nothing).
import type { Clock, Embedder, SqlPort, SqlValue, VectorIndex } from "../ports.js";
import { checkContent } from "./content-limits.js";
import { EmbeddedIndex } from "./index-embedded.js";
import {
  MEMORY_TYPES,
  PROVENANCES,
  type ExportedMemory,
  type MemoryEdge,
  type MemoryRecord,
  type MemoryType,
  type Provenance,
  type RecallHit,
} from "./memory-node.js";
import { isExpired, parseRetentionDays, retentionCutoff, type RetentionDays } from "./retention.js";
import { recallScore } from "./scoring.js";
import { migrateMemory } from "./schema.js";
import { SENSITIVITIES, parseSensitivity, type Sensitivity } from "./sensitivity.js";
import { blobToVector, vectorToBlob } from "./vector-bytes.js";

export const DEFAULT_HALF_LIFE_DAYS = 7;
export const RECALL_DEFAULT_LIMIT = 10;
export const RECALL_MAX_LIMIT = 50;
export const LIST_DEFAULT_LIMIT = 50;
export const LIST_MAX_LIMIT = 500;
/** Another agent's claim starts less certain than the owner's own statement. */
export const DEFAULT_CONFIDENCE: Readonly<Record<Provenance, number>> = Object.freeze({ owner: 0.9, tool_derived: 0.7, peer_agent: 0.5 });

const MAX_SCOPE_CHARS = 512;
const MAX_SOURCE_ID_CHARS = 512;
const MAX_RELATION_CHARS = 64;
const PAGE = 500;
const DELETE_BATCH = 1000;
// Recall asks the index for more than it returns so decay and recency can reorder; 100 is Vectorize's topK cap.
const MIN_CANDIDATES = 50;
const MAX_CANDIDATES = 100;
// Recall purges expired rows itself at most this often; hosts also call purgeExpired() on a schedule.
const PURGE_INTERVAL_MS = 3_600_000;

const COLUMNS =
  "id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days, created_at, last_accessed_at, forgotten_at";

/** A memory_nodes row as selected by COLUMNS: the record with its column name for the id. */
type NodeRow = Omit<MemoryRecord, "node_id"> & { id: string };

export interface MemoryStoreOptions {
  sql: SqlPort;
  embedder: Embedder;
  /** "embedded" searches the vectors stored beside the rows, in-process. */
  index: VectorIndex | "embedded";
  clock: Clock;
  /** privacy.retention_days from the identity file; missing levels take the defaults. */
  retentionDays?: Partial<Record<Sensitivity, number>>;
  /** memory.half_life_days from the identity file; stored on each node as it is written. */
  halfLifeDays?: number;
}

export interface RememberInput {
  content: string;
  sensitivity: Sensitivity;
  provenance: Provenance;
  /** "owner" or "peer:<callerId>". */
  scope: string;
  sourceId?: string | null;
  memoryType?: MemoryType;
  /** 0..1; defaults by provenance (DEFAULT_CONFIDENCE). */
  confidence?: number;
}

export interface RecallInput {
  query: string;
  /** Clamped to 1..50; default 10. */
  limit?: number;
  /** Only memories in these scopes; empty → no results. */
  scopes: string[];
  excludeSensitivities?: Sensitivity[];
}

export interface ListOptions {
  scope?: string;
  includeForgotten?: boolean;
  /** Clamped to 1..500; default 50. */
  limit?: number;
  offset?: number;
}

export class MemoryStore {
  readonly embedder: Embedder;
  readonly index: VectorIndex;
  readonly retentionDays: RetentionDays;
  readonly halfLifeDays: number;
  private readonly sql: SqlPort;
  readonly clock: Clock;
  private migrated = false;
  private repairDue = true;
  private repairing: Promise<unknown> | null = null;
  private lastPurgeAt = -Infinity;

  constructor(o: MemoryStoreOptions) {
    const halfLife = o.halfLifeDays ?? DEFAULT_HALF_LIFE_DAYS;
    if (typeof halfLife !== "number" || !Number.isFinite(halfLife) || halfLife <= 0) {
      throw new Error(`half_life_days must be a positive number of days, got ${JSON.stringify(halfLife)}`);
    }
    this.sql = o.sql;
    this.clock = o.clock;
    this.embedder = o.embedder;
    this.retentionDays = parseRetentionDays(o.retentionDays);
    this.halfLifeDays = halfLife;
    this.index =
      o.index === "embedded" ? new EmbeddedIndex({ sql: o.sql, embedderId: o.embedder.id, dimensions: o.embedder.dimensions }) : o.index;
  }

  /** Idempotent. Also notices a change of index or embedder, after which every row is re-indexed by repair. */
  migrate(): void {
    migrateMemory(this.sql);
    const setup = `${indexIdOf(this.index)}|${this.embedder.id}`;
    this.sql.transaction(() => {
      const [row] = this.sql.all<{ value: string }>(`SELECT value FROM memory_meta WHERE key = 'index'`);
      if (row?.value === setup) return;
      this.sql.run(`UPDATE memory_nodes SET indexed = 0 WHERE indexed = 1`);
      this.sql.run(`INSERT OR REPLACE INTO memory_meta (key, value) VALUES ('index', ?)`, setup);
    });
    this.migrated = true;
  }

  async remember(i: RememberInput): Promise<{ node_id: string }> {
    this.ensureMigrated();
    const content = checkContent(i.content);
    const sensitivity = parseSensitivity(i.sensitivity);
    if (sensitivity === null) throw new Error(`unknown sensitivity ${JSON.stringify(i.sensitivity)}: expected one of ${SENSITIVITIES.join(", ")}`);
    const provenance = oneOf(i.provenance, PROVENANCES, "provenance");
    const scope = checkScope(i.scope);
    const memoryType = i.memoryType === undefined ? "semantic" : oneOf(i.memoryType, MEMORY_TYPES, "memory type");
    const confidence = i.confidence === undefined ? DEFAULT_CONFIDENCE[provenance] : checkConfidence(i.confidence);
    const sourceId = i.sourceId === undefined || i.sourceId === null ? null : checkBounded(i.sourceId, MAX_SOURCE_ID_CHARS, "sourceId");

    const [vector] = await this.embedder.embed([content]);
    this.checkVector(vector);
    const id = crypto.randomUUID();
    const now = this.clock.now();
    // The row is the memory: once this statement returns it is durable, and repair can always re-index it.
    this.sql.run(
      `INSERT INTO memory_nodes (${COLUMNS}, embedding, embedder_id, indexed) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, 0)`,
      id, content, sensitivity, provenance, sourceId, scope, memoryType, confidence, this.halfLifeDays, now, now,
      vectorToBlob(vector), this.embedder.id,
    );
    try {
      await this.index.upsert([{ id, vector, scope, sensitivity }]);
      this.sql.run(`UPDATE memory_nodes SET indexed = 1 WHERE id = ?`, id);
    } catch {
      // Stored but not yet searchable: the next recall repairs the index first (and reports if it still fails).
      this.repairDue = true;
    }
    return { node_id: id };
  }

  async recall(i: RecallInput): Promise<RecallHit[]> {
    this.ensureMigrated();
    const query = checkContent(i.query, "recall query");
    const limit = clampInt(i.limit, RECALL_DEFAULT_LIMIT, 1, RECALL_MAX_LIMIT);
    if (!Array.isArray(i.scopes)) throw new Error("recall scopes must be an array of scope names");
    const scopes = i.scopes.map(checkScope);
    const excluded = new Set((i.excludeSensitivities ?? []).map((s) => {
      const p = parseSensitivity(s);
      if (p === null) throw new Error(`unknown sensitivity in excludeSensitivities: ${JSON.stringify(s)}`);
      return p;
    }));
    const allowed = SENSITIVITIES.filter((s) => !excluded.has(s));
    if (scopes.length === 0 || allowed.length === 0) return [];

    await this.repairIfDue();
    if (this.clock.now() - this.lastPurgeAt >= PURGE_INTERVAL_MS) await this.purgeExpired();

    const [vector] = await this.embedder.embed([query]);
    this.checkVector(vector);
    const candidates = Math.min(MAX_CANDIDATES, Math.max(MIN_CANDIDATES, limit * 4));
    const matches = await this.index.query(vector, candidates, { scopes, sensitivities: allowed });
    if (matches.length === 0) return [];

    const similarity = new Map(matches.map((m) => [m.id, Math.max(-1, Math.min(1, m.score))]));
    const rows = this.sql.all<NodeRow>(
      `SELECT ${COLUMNS} FROM memory_nodes WHERE id IN (SELECT value FROM json_each(?))`,
      JSON.stringify([...similarity.keys()]),
    );
    const now = this.clock.now();
    const inScope = new Set(scopes);
    const permitted = new Set<string>(allowed);
    const ranked = rows
      .filter(
        (r) =>
          r.forgotten_at === null &&
          inScope.has(r.scope) &&
          permitted.has(r.sensitivity) &&
          !isExpired(this.retentionDays, r.sensitivity, Number(r.created_at), now),
      )
      .map((r) => {
        const sim = similarity.get(r.id) ?? 0;
        const score = recallScore(
          { similarity: sim, confidence: r.confidence, halfLifeDays: r.half_life_days, createdAt: Number(r.created_at), lastAccessedAt: Number(r.last_accessed_at) },
          now,
        );
        return { r, sim, score };
      })
      // Nothing in common with the query is not a result, however fresh or confident.
      .filter((h) => h.sim > 0)
      .sort((a, b) => b.score - a.score || Number(b.r.created_at) - Number(a.r.created_at) || (a.r.id < b.r.id ? -1 : 1))
      .slice(0, limit);
    if (ranked.length > 0) {
      this.sql.run(
        `UPDATE memory_nodes SET last_accessed_at = ? WHERE id IN (SELECT value FROM json_each(?))`,
        now,
        JSON.stringify(ranked.map((h) => h.r.id)),
      );
    }
    return ranked.map(({ r, sim }) => ({
      node_id: r.id,
      content: r.content,
      confidence: r.confidence,
      similarity: sim,
      half_life_days: r.half_life_days,
      memory_type: r.memory_type,
      created_at: Number(r.created_at),
      sensitivity: r.sensitivity,
      provenance: r.provenance,
    }));
  }

  /** Newest first. Forgotten nodes (tombstones, content erased) only when asked for. */
  list(o: ListOptions = {}): MemoryRecord[] {
    this.ensureMigrated();
    const limit = clampInt(o.limit, LIST_DEFAULT_LIMIT, 1, LIST_MAX_LIMIT);
    const offset = clampInt(o.offset, 0, 0, Number.MAX_SAFE_INTEGER);
    const { where, params } = listFilter(o);
    const rows = this.sql.all<NodeRow>(
      `SELECT ${COLUMNS} FROM memory_nodes ${where} ORDER BY created_at DESC, id DESC LIMIT ? OFFSET ?`,
      ...params, limit, offset,
    );
    return rows.map(toRecord);
  }

  get(id: string): MemoryRecord | null {
    this.ensureMigrated();
    const [row] = this.sql.all<NodeRow>(`SELECT ${COLUMNS} FROM memory_nodes WHERE id = ?`, String(id));
    return row ? toRecord(row) : null;
  }

  count(o: { scope?: string; includeForgotten?: boolean } = {}): number {
    this.ensureMigrated();
    const { where, params } = listFilter(o);
    const [{ n }] = this.sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM memory_nodes ${where}`, ...params);
    return Number(n);
  }

  /**
   * Tombstones a node: its content and vector are erased now, the row (id, metadata, forgotten_at) stays
   * until retention purges it, and its vector is removed from the index. False if no live node had that id.
   */
  async forget(id: string): Promise<boolean> {
    this.ensureMigrated();
    const now = this.clock.now();
    const changed = this.sql.transaction(() => {
      const c = this.sql.run(
        `UPDATE memory_nodes SET forgotten_at = ?, content = '', embedding = NULL, indexed = 0 WHERE id = ? AND forgotten_at IS NULL`,
        now,
        String(id),
      ).changes;
      if (c > 0) this.sql.run(`INSERT OR IGNORE INTO memory_index_deletes (id, queued_at) VALUES (?, ?)`, String(id), now);
      return c > 0;
    });
    if (changed) await this.drainIndexDeletes(false);
    return changed;
  }

  /** Every node (tombstones included) with its outgoing edges, oldest first, without embeddings: JSON-able. */
  exportAll(): ExportedMemory[] {
    this.ensureMigrated();
    const out: ExportedMemory[] = [];
    const byId = new Map<string, ExportedMemory>();
    let after = -1;
    for (;;) {
      const rows = this.sql.all<NodeRow & { rid: number }>(
        `SELECT rowid AS rid, ${COLUMNS} FROM memory_nodes WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`,
        after,
      );
      for (const r of rows) {
        const e: ExportedMemory = { ...toRecord(r), edges: [] };
        out.push(e);
        byId.set(e.node_id, e);
      }
      if (rows.length < PAGE) break;
      after = Number(rows[rows.length - 1].rid);
    }
    for (const edge of this.sql.all<MemoryEdge>(`SELECT from_id, to_id, relation, weight, created_at FROM memory_edges ORDER BY created_at, from_id, to_id`)) {
      byId.get(edge.from_id)?.edges.push({ to_id: edge.to_id, relation: edge.relation, weight: edge.weight, created_at: Number(edge.created_at) });
    }
    out.sort((a, b) => a.created_at - b.created_at || (a.node_id < b.node_id ? -1 : 1));
    return out;
  }

  /** Relates two live nodes (idempotent per relation; a repeat updates the weight). */
  link(fromId: string, toId: string, relation = "related", weight = 1): void {
    this.ensureMigrated();
    checkBounded(relation, MAX_RELATION_CHARS, "relation");
    if (typeof weight !== "number" || !Number.isFinite(weight)) throw new Error(`edge weight must be a finite number, got ${JSON.stringify(weight)}`);
    if (fromId === toId) throw new Error("a memory node cannot be linked to itself");
    const live = this.sql.all<{ id: string }>(
      `SELECT id FROM memory_nodes WHERE id IN (?, ?) AND forgotten_at IS NULL`,
      String(fromId),
      String(toId),
    );
    for (const id of [fromId, toId]) {
      if (!live.some((r) => r.id === id)) throw new Error(`unknown memory node ${JSON.stringify(id)}`);
    }
    this.sql.run(
      `INSERT OR REPLACE INTO memory_edges (from_id, to_id, relation, weight, created_at) VALUES (?, ?, ?, ?, ?)`,
      fromId, toId, relation, weight, this.clock.now(),
    );
  }

  /** Edges touching a node, in either direction. */
  edges(id: string): MemoryEdge[] {
    this.ensureMigrated();
    return this.sql
      .all<MemoryEdge>(
        `SELECT from_id, to_id, relation, weight, created_at FROM memory_edges WHERE from_id = ? OR to_id = ? ORDER BY created_at`,
        String(id),
        String(id),
      )
      .map((e) => ({ ...e, created_at: Number(e.created_at) }));
  }

  /**
   * Deletes (not hides) every node older than its sensitivity's retention — tombstones too — with its
   * edges, and removes the vectors from the index.
   */
  async purgeExpired(now: number = this.clock.now()): Promise<{ purged: number }> {
    this.ensureMigrated();
    let purged = 0;
    for (const s of SENSITIVITIES) {
      // 0 days: nothing of this sensitivity outlives a purge.
      const cutoff = this.retentionDays[s] === 0 ? now + 1 : retentionCutoff(this.retentionDays, s, now);
      for (;;) {
        // Counted from the ids rather than run().changes, which a SQL port may only approximate (rows written).
        const n = this.sql.transaction(() => {
          const ids = this.sql
            .all<{ id: string }>(`SELECT id FROM memory_nodes WHERE sensitivity = ? AND created_at < ? LIMIT ${PAGE}`, s, cutoff)
            .map((r) => r.id);
          if (ids.length === 0) return 0;
          const list = JSON.stringify(ids);
          this.sql.run(
            `DELETE FROM memory_edges WHERE from_id IN (SELECT value FROM json_each(?)) OR to_id IN (SELECT value FROM json_each(?))`,
            list,
            list,
          );
          this.sql.run(`INSERT OR IGNORE INTO memory_index_deletes (id, queued_at) SELECT value, ? FROM json_each(?)`, now, list);
          this.sql.run(`DELETE FROM memory_nodes WHERE id IN (SELECT value FROM json_each(?))`, list);
          return ids.length;
        });
        purged += n;
        if (n < PAGE) break;
      }
    }
    this.lastPurgeAt = now;
    await this.drainIndexDeletes(false);
    return { purged };
  }

  /**
   * Brings the index in line with the rows: applies owed deletions, then indexes every live row with
   * indexed = 0 (re-embedding rows whose stored vector came from another embedder). Throws if the index does.
   */
  async repairIndex(o: { onProgress?: (done: number, total: number) => void } = {}): Promise<{ reindexed: number }> {
    this.ensureMigrated();
    await this.drainIndexDeletes(true);
    let reindexed = 0;
    // Each page is committed as it goes (embedding, then indexed = 1), so an interrupted re-embed resumes where it stopped.
    const total = o.onProgress
      ? this.sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM memory_nodes WHERE indexed = 0 AND forgotten_at IS NULL`)[0].n
      : 0;
    let after = "";
    for (;;) {
      const rows = this.sql.all<{ id: string; content: string; scope: string; sensitivity: string; embedding: SqlValue; embedder_id: string | null }>(
        `SELECT id, content, scope, sensitivity, embedding, embedder_id FROM memory_nodes
          WHERE indexed = 0 AND forgotten_at IS NULL AND id > ? ORDER BY id LIMIT ${PAGE}`,
        after,
      );
      if (rows.length === 0) break;
      after = rows[rows.length - 1].id;
      const vectors = new Map<string, Float32Array>();
      const stale: typeof rows = [];
      for (const r of rows) {
        const v = r.embedder_id === this.embedder.id ? blobToVector(r.embedding) : null;
        if (v && v.length === this.embedder.dimensions) vectors.set(r.id, v);
        else stale.push(r);
      }
      if (stale.length > 0) {
        const fresh = await this.embedder.embed(stale.map((r) => r.content));
        fresh.forEach((v) => this.checkVector(v));
        this.sql.transaction(() => {
          stale.forEach((r, k) => {
            vectors.set(r.id, fresh[k]);
            this.sql.run(
              `UPDATE memory_nodes SET embedding = ?, embedder_id = ? WHERE id = ? AND forgotten_at IS NULL`,
              vectorToBlob(fresh[k]), this.embedder.id, r.id,
            );
          });
        });
      }
      // A row may have been forgotten while we embedded; only live rows go into the index.
      const live = new Set(
        this.sql
          .all<{ id: string }>(`SELECT id FROM memory_nodes WHERE id IN (SELECT value FROM json_each(?)) AND forgotten_at IS NULL`, JSON.stringify(rows.map((r) => r.id)))
          .map((r) => r.id),
      );
      const items = rows.filter((r) => live.has(r.id)).map((r) => ({ id: r.id, vector: vectors.get(r.id)!, scope: r.scope, sensitivity: r.sensitivity }));
      if (items.length === 0) continue;
      await this.index.upsert(items);
      this.sql.run(`UPDATE memory_nodes SET indexed = 1 WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(items.map((x) => x.id)));
      reindexed += items.length;
      o.onProgress?.(reindexed, total);
    }
    return { reindexed };
  }

  private ensureMigrated(): void {
    if (!this.migrated) this.migrate();
  }

  // Concurrent recalls share one repair; a failed repair is retried by the next recall.
  private async repairIfDue(): Promise<void> {
    if (this.repairing) {
      await this.repairing;
      return;
    }
    if (!this.repairDue) return;
    this.repairDue = false;
    this.repairing = this.repairIndex()
      .catch((e) => {
        this.repairDue = true;
        throw e;
      })
      .finally(() => {
        this.repairing = null;
      });
    await this.repairing;
  }

  private async drainIndexDeletes(throwOnError: boolean): Promise<void> {
    for (;;) {
      const ids = this.sql
        .all<{ id: string }>(`SELECT id FROM memory_index_deletes ORDER BY queued_at, id LIMIT ${DELETE_BATCH}`)
        .map((r) => r.id);
      if (ids.length === 0) return;
      try {
        await this.index.delete(ids);
      } catch (e) {
        // Still owed: the outbox keeps them, and the next repair retries.
        this.repairDue = true;
        if (throwOnError) throw e;
        return;
      }
      this.sql.run(`DELETE FROM memory_index_deletes WHERE id IN (SELECT value FROM json_each(?))`, JSON.stringify(ids));
      if (ids.length < DELETE_BATCH) return;
    }
  }

  private checkVector(v: Float32Array | undefined): asserts v is Float32Array {
    if (!(v instanceof Float32Array) || v.length !== this.embedder.dimensions) {
      throw new Error(`embedder ${this.embedder.id} returned ${v instanceof Float32Array ? v.length : "no"} dimensions, expected ${this.embedder.dimensions}`);
    }
  }
}

function indexIdOf(index: VectorIndex): string {
  const id = (index as { id?: unknown }).id;
  return typeof id === "string" ? id : "custom";
}

function toRecord(r: NodeRow): MemoryRecord {
  return {
    node_id: r.id,
    content: r.content,
    sensitivity: r.sensitivity,
    provenance: r.provenance,
    source_id: r.source_id,
    scope: r.scope,
    memory_type: r.memory_type,
    confidence: r.confidence,
    half_life_days: r.half_life_days,
    created_at: Number(r.created_at),
    last_accessed_at: Number(r.last_accessed_at),
    forgotten_at: r.forgotten_at === null ? null : Number(r.forgotten_at),
  };
}

function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string): T {
  if (typeof v === "string" && (allowed as readonly string[]).includes(v)) return v as T;
  throw new Error(`unknown ${what} ${JSON.stringify(v)}: expected one of ${allowed.join(", ")}`);
}

function checkBounded(v: unknown, max: number, what: string): string {
  if (typeof v !== "string" || v.length === 0 || v.length > max) throw new Error(`${what} must be a string of 1..${max} characters`);
  return v;
}

function checkScope(v: unknown): string {
  return checkBounded(v, MAX_SCOPE_CHARS, "memory scope");
}

function checkConfidence(v: unknown): number {
  if (typeof v !== "number" || !Number.isFinite(v) || v < 0 || v > 1) throw new Error(`confidence must be a number in 0..1, got ${JSON.stringify(v)}`);
  return v;
}

/** Non-numbers take the default; numbers are floored and clamped (a caller's limit is a wish, not an error). */
function clampInt(v: unknown, fallback: number, min: number, max: number): number {
  if (typeof v !== "number" || !Number.isFinite(v)) return fallback;
  return Math.min(max, Math.max(min, Math.floor(v)));
}

/** The WHERE clause list() and count() share: an optional scope, and tombstones only when asked for. */
function listFilter(o: { scope?: string; includeForgotten?: boolean }): { where: string; params: SqlValue[] } {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (o.scope !== undefined) {
    clauses.push("scope = ?");
    params.push(checkScope(o.scope));
  }
  if (!o.includeForgotten) clauses.push("forgotten_at IS NULL");
  return { where: clauses.length ? "WHERE " + clauses.join(" AND ") : "", params };
}
