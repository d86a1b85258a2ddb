// The log's tables: one row per leaf (its hash and the receipt it commits to) and one per complete subtree above the
// leaves. Appending writes the leaf and the subtrees it completes (O(log n), amortised O(1)); roots and proofs read
// stored subtrees only (proofs.ts). Rows are only ever added.
import type { SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";
import { appendLeaf, borderPositions, EMPTY_FRONTIER, type Frontier, type ReceiptProof } from "./frontier.js";
import { consistencyPath, inclusionPath, subtreeHash, type StoredNode } from "./proofs.js";
import { receiptLeafHash } from "./receipt-leaf.js";

export const LOG_SCHEMA: StoreSchema = {
  store: "receipt_log",
  steps: [
    // 1: the tables, and every receipt signed before the log existed, in ledger order (the receipts' rowid order).
    (sql) => {
      sql.run(
        `CREATE TABLE IF NOT EXISTS log_leaves (
          leaf_index INTEGER PRIMARY KEY,
          leaf_hash TEXT NOT NULL UNIQUE,
          task_id TEXT NOT NULL
        )`,
      );
      sql.run(
        `CREATE TABLE IF NOT EXISTS log_nodes (
          level INTEGER NOT NULL,
          idx INTEGER NOT NULL,
          hash TEXT NOT NULL,
          PRIMARY KEY (level, idx)
        ) WITHOUT ROWID`,
      );
      const log = new LogStore(sql);
      for (const r of sql.all<{ task_id: string; json: string }>("SELECT task_id, json FROM receipts ORDER BY rowid")) {
        log.append(r.task_id, receiptLeafHash(JSON.parse(r.json) as object));
      }
    },
    // 2: the leaf hash's UNIQUE index (64-character random keys: most of an append's cost) becomes a plain index on the
    // hash's first 48 bits as an integer; a lookup compares the full hash on the rows it finds. SQLite drops a UNIQUE
    // constraint only by copying the table.
    (sql) => {
      sql.run("CREATE TABLE log_leaves_next (leaf_index INTEGER PRIMARY KEY, leaf_hash TEXT NOT NULL, task_id TEXT NOT NULL)");
      sql.run("INSERT INTO log_leaves_next (leaf_index, leaf_hash, task_id) SELECT leaf_index, leaf_hash, task_id FROM log_leaves");
      sql.run("DROP TABLE log_leaves");
      sql.run("ALTER TABLE log_leaves_next RENAME TO log_leaves");
      sql.run(`CREATE INDEX log_leaves_by_hash_prefix ON log_leaves (${hashPrefix("leaf_hash")})`);
    },
  ],
};

/**
 * SQL for the integer value of a hex hash's first 12 digits (48 bits; lowercase hex, as every leaf hash is). The same
 * text indexes the column and keys a lookup, so SQLite's planner matches the index to the query. Built-in, deterministic
 * functions only: both hosts' SQLite take it in an index.
 */
function hashPrefix(hex: string): string {
  return Array.from({ length: 12 }, (_, i) => `(instr('0123456789abcdef', substr(${hex}, ${i + 1}, 1)) - 1) * ${16 ** (11 - i)}`).join(" + ");
}

const LEAF_BY_HASH = `SELECT leaf_index, leaf_hash, task_id FROM log_leaves WHERE ${hashPrefix("leaf_hash")} = ${hashPrefix("?1")} AND leaf_hash = ?1`;

export interface Leaf {
  leafIndex: number;
  leafHash: string;
  taskId: string;
}

export class LogStore {
  /**
   * The border after this process's last append, so the next one reads no stored nodes. Used only while the table's
   * last leaf is still the one it ends with: a rolled-back append, or another writer, makes it be read afresh.
   */
  private frontier: Frontier = EMPTY_FRONTIER;

  constructor(private readonly sql: SqlPort) {}

  /** Idempotent; the receipts table must exist (its store migrates first). */
  migrate(): void {
    migrate(this.sql, LOG_SCHEMA);
  }

  size(): number {
    return this.sql.all<{ n: number }>("SELECT COALESCE(MAX(leaf_index) + 1, 0) AS n FROM log_leaves")[0].n;
  }

  /**
   * Adds the leaf and the complete subtrees it makes; the caller holds the transaction that also stores its receipt.
   * Returns the leaf's inclusion proof in the tree that ends with it.
   */
  append(taskId: string, leafHash: string): ReceiptProof {
    let next = appendLeaf(this.frontier, leafHash);
    // The kept border is checked in the leaf's own INSERT (one statement, not a read and a write): the row goes in only
    // while the table's last leaf is the border's. Leaf hashes are unique (each commits to a distinct signed receipt), so that
    // leaf's index is the border's size - 1.
    const kept = this.sql.run(
      "INSERT INTO log_leaves (leaf_index, leaf_hash, task_id) SELECT ?, ?, ? WHERE (SELECT leaf_hash FROM log_leaves ORDER BY leaf_index DESC LIMIT 1) IS ?",
      this.frontier.size, leafHash, taskId, this.frontier.lastLeaf,
    );
    if (kept.changes === 0) {
      const [last] = this.sql.all<{ leaf_index: number; leaf_hash: string }>("SELECT leaf_index, leaf_hash FROM log_leaves ORDER BY leaf_index DESC LIMIT 1");
      const size = last === undefined ? 0 : last.leaf_index + 1;
      const f = { size, lastLeaf: last?.leaf_hash ?? null, nodes: borderPositions(size).map(({ level, index }) => ({ level, hash: this.node(level, index) })) };
      next = appendLeaf(f, leafHash);
      this.sql.run("INSERT INTO log_leaves (leaf_index, leaf_hash, task_id) VALUES (?, ?, ?)", size, leafHash, taskId);
    }
    for (const n of next.made) this.sql.run("INSERT INTO log_nodes (level, idx, hash) VALUES (?, ?, ?)", n.level, n.index, n.hash);
    this.frontier = next.frontier;
    return next.proof;
  }

  leafByHash(leafHash: string): Leaf | undefined {
    const [r] = this.sql.all<{ leaf_index: number; leaf_hash: string; task_id: string }>(LEAF_BY_HASH, leafHash);
    return r && { leafIndex: r.leaf_index, leafHash: r.leaf_hash, taskId: r.task_id };
  }

  /** Leaves in order from `from`, at most `limit`. */
  leaves(from: number, limit: number): Leaf[] {
    return this.sql
      .all<{ leaf_index: number; leaf_hash: string; task_id: string }>("SELECT leaf_index, leaf_hash, task_id FROM log_leaves WHERE leaf_index >= ? ORDER BY leaf_index LIMIT ?", from, limit)
      .map((r) => ({ leafIndex: r.leaf_index, leafHash: r.leaf_hash, taskId: r.task_id }));
  }

  /** The root of the first `size` leaves (size ≤ size()). */
  root(size: number): string {
    return subtreeHash(this.node, 0, size);
  }

  inclusion(index: number, size: number): string[] {
    return inclusionPath(this.node, index, size);
  }

  consistency(first: number, second: number): string[] {
    return consistencyPath(this.node, first, second);
  }

  private readonly node: StoredNode = (level, index) => {
    const [r] =
      level === 0
        ? this.sql.all<{ hash: string }>("SELECT leaf_hash AS hash FROM log_leaves WHERE leaf_index = ?", index)
        : this.sql.all<{ hash: string }>("SELECT hash FROM log_nodes WHERE level = ? AND idx = ?", level, index);
    // A missing node is a damaged log (a deleted row): fail, never answer with a made-up hash.
    if (r === undefined) throw new Error(`the receipt log has no node at level ${level}, index ${index}: its tables are damaged`);
    return r.hash;
  };
}

export type { ReceiptProof };

export const LOG_META_KEY = "motebit/log";

/** The proof for a stored receipt against the tree of size leaf_index + 1 (append-only: it never changes), or null when it is not in the log. */
export function receiptProof(log: LogStore, receipt: object): ReceiptProof | null {
  const index = log.leafByHash(receiptLeafHash(receipt))?.leafIndex;
  if (index === undefined) return null;
  const size = index + 1;
  return { leaf_index: index, tree_size: size, root_hash: log.root(size), audit_path: log.inclusion(index, size) };
}
