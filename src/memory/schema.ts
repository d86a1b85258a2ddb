// The memory tables. The same statements run in the Durable Object (ctx.storage.sql) and in
// motebit-local (node:sqlite). Every name starts with memory_ because other modules share the database.
import type { SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

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

export const MEMORY_STORE: StoreSchema = {
  store: "memory",
  steps: [
    (sql) => MEMORY_SCHEMA.forEach((statement) => sql.run(statement)),
    // 2 (issue 25): the one static token became the token named "static", caller "static:static"; what its holder
    // remembered before stays theirs.
    (sql) => {
      sql.run("UPDATE memory_nodes SET scope = 'peer:static:static' WHERE scope = 'peer:static'");
      sql.run("UPDATE memory_nodes SET source_id = 'static:static' WHERE source_id = 'static'");
    },
  ],
};

/** Runs the memory store's steps this database has not run yet. */
export function migrateMemory(sql: SqlPort): void {
  migrate(sql, MEMORY_STORE);
}
