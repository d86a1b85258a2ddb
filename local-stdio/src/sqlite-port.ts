// The SQL port over a local SQLite file (better-sqlite3 12): the motebit-local twin of the Durable Object's
// ctx.storage.sql, so the core's schema and queries run unchanged on the owner's machine.
import { chmodSync, closeSync, constants, openSync } from "node:fs";
import Database from "better-sqlite3";
import type { SqlPort, SqlValue } from "motebit-edge/core";

export interface LocalSql extends SqlPort {
  close(): void;
}

/** better-sqlite3 binds Buffers, not bare Uint8Arrays or ArrayBuffers. */
function bind(v: SqlValue): unknown {
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v instanceof Uint8Array && !Buffer.isBuffer(v)) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

/** The parameters as better-sqlite3 takes them; the same array when none is binary (the common case: no copy). */
function bindAll(params: SqlValue[]): unknown[] {
  for (const p of params) if (typeof p === "object" && p !== null) return params.map(bind);
  return params;
}

/** BLOBs come back as plain Uint8Arrays, as ctx.storage.sql returns them (never Node Buffers). */
function unbind<T>(row: unknown): T {
  const r = row as Record<string, unknown>;
  for (const k in r) {
    const v = r[k];
    if (Buffer.isBuffer(v)) r[k] = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
  }
  return r as T;
}

/**
 * How hard a commit waits for the disk. "normal" (WAL + synchronous=NORMAL, better-sqlite3's default): a crash
 * of the process loses nothing committed, but a power loss or OS crash can roll back the last commits.
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

export const DATA_FILE_MODE = 0o600;

/** Opens (creating if missing) a SQLite database file, or ":memory:". File databases run in WAL mode, mode 0600. */
export function openSqlite(path: string, o: { durability?: Durability } = {}): LocalSql {
  if (path !== ":memory:") ownerOnly(path);
  const db = new Database(path);
  if (path !== ":memory:") {
    db.pragma("journal_mode = WAL");
    db.pragma(`synchronous = ${o.durability === "full" ? "FULL" : "NORMAL"}`);
    // `memory` and `receipts` may open the file while `serve` holds it: wait for its write lock instead of failing.
    db.pragma("busy_timeout = 5000");
  }
  db.pragma("foreign_keys = ON");
  // Statements are prepared once per SQL text: the core reuses a small set of fixed queries.
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string): Database.Statement => {
    let st = statements.get(sql);
    if (!st) statements.set(sql, (st = db.prepare(sql)));
    return st;
  };
  // One wrapper for every transaction (db.transaction builds a new one per call); a nested call is a savepoint.
  const inTransaction = db.transaction((fn: () => unknown) => fn());
  return {
    all<T>(sql: string, ...params: SqlValue[]): T[] {
      const st = prepare(sql);
      // A statement that returns no data (DDL, plain INSERT) cannot .all() in better-sqlite3: run it instead.
      if (!st.reader) {
        st.run(...bindAll(params));
        return [];
      }
      return st.all(...bindAll(params)).map((row) => unbind<T>(row));
    },
    run(sql: string, ...params: SqlValue[]) {
      return { changes: prepare(sql).run(...bindAll(params)).changes };
    },
    transaction<T>(fn: () => T): T {
      return inTransaction(fn) as T;
    },
    close(): void {
      statements.clear();
      if (db.open) db.close();
    },
  };
}
