// The one migration runner. Every store (a group of tables one module owns) lists its schema as numbered steps;
// the database records, per store, how many steps it has run. Opening a store runs the steps it has not run yet,
// in one transaction with the new version, and refuses a database whose version is beyond the steps this release
// knows (it was written by a newer release, whose tables this one would misread).
//
// Step 1 of every store is the schema as it stood when versions were introduced, written to also adopt a database
// from before versions (version 0, tables already there): CREATE ... IF NOT EXISTS, and the columns older releases
// lacked added when missing. Later steps are plain DDL and run exactly once. Never edit a step that has shipped:
// append a new one (docs/architecture.md, "Storage versions").
import type { SqlPort } from "../ports.js";
import { StartupError } from "../settings/startup-error.js";

/** One schema change, run once, inside the runner's transaction. */
export type MigrationStep = (sql: SqlPort) => void;

export interface StoreSchema {
  /** Unique within the database; the row in schema_versions. */
  readonly store: string;
  /** steps[0] is version 1. */
  readonly steps: readonly MigrationStep[];
}

const VERSIONS_TABLE = "CREATE TABLE IF NOT EXISTS schema_versions (store TEXT PRIMARY KEY, version INTEGER NOT NULL)";

/** Brings `schema.store` up to its last step; throws StartupError when the database is newer than this release. */
export function migrate(sql: SqlPort, schema: StoreSchema): void {
  const latest = schema.steps.length;
  sql.transaction(() => {
    sql.run(VERSIONS_TABLE);
    const current = sql.all<{ version: number }>("SELECT version FROM schema_versions WHERE store = ?", schema.store)[0]?.version ?? 0;
    if (current === latest) return;
    if (current > latest) {
      throw new StartupError(
        `this database's ${schema.store} tables are at schema version ${current}, but this release knows only up to version ${latest}: ` +
          "a newer release wrote them. Run that release (or a later one); they were left as they are.",
      );
    }
    for (let v = current; v < latest; v++) schema.steps[v](sql);
    sql.run(
      "INSERT INTO schema_versions (store, version) VALUES (?, ?) ON CONFLICT (store) DO UPDATE SET version = excluded.version",
      schema.store,
      latest,
    );
  });
}

/** For step 1 only: adds `column` to `table` when a database from before versions lacks it. */
export function addColumnIfMissing(sql: SqlPort, table: string, column: string, definition: string): void {
  try {
    sql.all(`SELECT ${column} FROM ${table} LIMIT 0`);
  } catch {
    sql.run(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
  }
}
