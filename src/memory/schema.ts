// The memory tables. The same statements run in the Durable Object (ctx.storage.sql) and in
// motebit-local (node:sqlite). Every name starts with memory_ because other modules share the database.
import type { SqlPort } from "../ports.js";

export const MEMORY_SCHEMA: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS memory_nodes (
    id TEXT PRIMARY KEY,
    content TEXT NOT NULL,
    sensitivity TEXT NOT NULL,
    provenance TEXT NOT NULL,
    source_id TEXT,
    scope TEXT NOT NULL,
    memory_type TEXT NOT NULL,
    confidence REAL NOT NULL,
    half_life_days REAL NOT NULL,
    created_at INTEGER NOT NULL,
    last_accessed_at INTEGER NOT NULL,
    forgotten_at INTEGER,
    embedding BLOB,
    embedder_id TEXT,
    indexed INTEGER NOT NULL DEFAULT 0
  )`,
  `CREATE INDEX IF NOT EXISTS memory_nodes_scope_created ON memory_nodes (scope, created_at)`,
  // Retention purges walk this: one range scan per sensitivity.
  `CREATE INDEX IF NOT EXISTS memory_nodes_sensitivity_created ON memory_nodes (sensitivity, created_at)`,
  // Repair only ever looks for rows the index has not confirmed; keep that lookup cheap.
  `CREATE INDEX IF NOT EXISTS memory_nodes_unindexed ON memory_nodes (indexed) WHERE indexed = 0`,
  `CREATE TABLE IF NOT EXISTS memory_edges (
    from_id TEXT NOT NULL,
    to_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    weight REAL NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (from_id, to_id, relation)
  )`,
  `CREATE INDEX IF NOT EXISTS memory_edges_to ON memory_edges (to_id)`,
  // Index deletions owed to the vector index: written in the same transaction as the row change,
  // cleared once the index confirmed, so a crash or an index outage cannot leave a vector behind.
  `CREATE TABLE IF NOT EXISTS memory_index_deletes (
    id TEXT PRIMARY KEY,
    queued_at INTEGER NOT NULL
  )`,
  // Which vector index the indexed flags refer to; a different index means every row must be re-indexed.
  `CREATE TABLE IF NOT EXISTS memory_meta (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
  )`,
];

/** Idempotent: safe on every start. */
export function migrateMemory(sql: SqlPort): void {
  sql.transaction(() => {
    for (const statement of MEMORY_SCHEMA) sql.run(statement);
  });
}
