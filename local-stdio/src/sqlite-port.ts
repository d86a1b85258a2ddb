// The SQL port over a local SQLite file (node:sqlite, built into Node ≥ 22.13: nothing to compile on install): the
// motebit-local twin of the Durable Object's ctx.storage.sql, so the core's schema and queries run unchanged on the
// owner's machine.
import { chmodSync, closeSync, constants, openSync } from "node:fs";
import type { DatabaseSync, StatementSync } from "node:sqlite";
import type { SqlPort, SqlValue } from "motebit-edge/core";
import { withoutWarning } from "./quiet-warning.js";

export interface LocalSql extends SqlPort {
  close(): void;
}

/**
 * node:sqlite, loaded without its "SQLite is an experimental feature" warning: Node 22 prints it on stderr once per
 * process, where an MCP host shows it to the owner as if something were wrong. Only that one warning is dropped.
 */
function loadSqlite(): typeof import("node:sqlite") {
  return withoutWarning((text, { type }) => type === "ExperimentalWarning" && text.startsWith("SQLite "), () => process.getBuiltinModule("node:sqlite"));
}
const { DatabaseSync: Database } = loadSqlite();

/** node:sqlite binds any Uint8Array but stores a bare ArrayBuffer as NULL: view it first. */
function bindAll(params: SqlValue[]): (string | number | null | Uint8Array)[] {
  for (const p of params) if (p instanceof ArrayBuffer) return params.map((v) => (v instanceof ArrayBuffer ? new Uint8Array(v) : v));
  return params as (string | number | null | Uint8Array)[];
}

/**
 * How hard a commit waits for the disk. "normal" (WAL + synchronous=NORMAL): a crash of the process loses nothing
 * committed, but a power loss or OS crash can roll back the last commits.
 * "full" (synchronous=FULL): every commit is fsynced before it returns, so it survives a power loss too.
 */
export type Durability = "normal" | "full";

/** The data files: the database, and the WAL and shared-memory files SQLite keeps beside it. */
const dataFiles = (path: string) => [path, `${path}-wal`, `${path}-shm`];

/**
 * The database file, created 0600 when missing, and it and its WAL and shared-memory files narrowed to 0600 when
 * they exist: they hold memories and receipts, so the folder's mode (an existing 0755 `--data-dir`) or the umask
 * never makes them readable by others. SQLite creates -wal and -shm with the database file's mode.
 */
function ownerOnly(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), DATA_FILE_MODE));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
  }
  for (const f of dataFiles(path)) {
    try {
      chmodSync(f, DATA_FILE_MODE);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    }
  }
}

const DATA_FILE_MODE = 0o600;

/**
 * Opens (creating if missing) a SQLite database file, or ":memory:". File databases run in WAL mode, mode 0600. `readOnly`
 * opens an existing file as it is, to look into it while another process may hold it.
 */
export function openSqlite(path: string, o: { durability?: Durability; readOnly?: boolean } = {}): LocalSql {
  // `memory` and `receipts` may open the file while `serve` holds it: wait up to 5 s for its write lock instead of failing.
  if (path !== ":memory:" && !o.readOnly) ownerOnly(path);
  const db: DatabaseSync = new Database(path, { timeout: 5000, readOnly: o.readOnly === true });
  if (path !== ":memory:" && !o.readOnly) {
    db.exec("PRAGMA journal_mode = WAL");
    db.exec(`PRAGMA synchronous = ${o.durability === "full" ? "FULL" : "NORMAL"}`);
  }
  db.exec("PRAGMA foreign_keys = ON");
  // Statements are prepared once per SQL text: the core reuses a small set of fixed queries.
  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let st = statements.get(sql);
    if (!st) statements.set(sql, (st = db.prepare(sql)));
    return st;
  };
  // A transaction inside a transaction is a savepoint, so a nested failure rolls back only its own writes.
  let depth = 0;
  return {
    all<T>(sql: string, ...params: SqlValue[]): T[] {
      // Rows are null-prototype objects with BLOBs as plain Uint8Arrays, as ctx.storage.sql returns them.
      return prepare(sql).all(...bindAll(params)) as T[];
    },
    run(sql: string, ...params: SqlValue[]) {
      return { changes: Number(prepare(sql).run(...bindAll(params)).changes) };
    },
    transaction<T>(fn: () => T): T {
      const outer = depth === 0;
      const name = `t${depth}`;
      prepare(outer ? "BEGIN" : `SAVEPOINT ${name}`).run();
      depth++;
      let out: T;
      try {
        out = fn();
      } catch (e) {
        depth--;
        // SQLite may already have rolled everything back itself (a full disk, an I/O error): nothing left to undo.
        if (db.isTransaction) {
          if (outer) prepare("ROLLBACK").run();
          else prepare(`ROLLBACK TO ${name}`).run(), prepare(`RELEASE ${name}`).run();
        }
        throw e;
      }
      depth--;
      try {
        prepare(outer ? "COMMIT" : `RELEASE ${name}`).run();
      } catch (e) {
        // A COMMIT that failed (the lock not had within the busy timeout) leaves the transaction open: end it.
        if (outer && db.isTransaction) prepare("ROLLBACK").run();
        throw e;
      }
      return out;
    },
    close(): void {
      statements.clear();
      if (db.isOpen) db.close();
    },
  };
}
