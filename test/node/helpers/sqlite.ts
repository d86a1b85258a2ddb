// A SqlPort over an in-memory better-sqlite3 database, for Node tests of code that stores rows.

import Database from "better-sqlite3";
import type { SqlPort, SqlValue } from "../../../src/ports.js";

function bind(v: SqlValue): unknown {
  if (v instanceof ArrayBuffer) return Buffer.from(v);
  if (v instanceof Uint8Array) return Buffer.from(v.buffer, v.byteOffset, v.byteLength);
  return v;
}

export function memorySql(): SqlPort {
  const db = new Database(":memory:");
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let st = statements.get(sql);
    if (!st) statements.set(sql, (st = db.prepare(sql)));
    return st;
  };
  return {
    all<T>(sql: string, ...params: SqlValue[]): T[] {
      return prepare(sql).all(...params.map(bind)) as T[];
    },
    run(sql: string, ...params: SqlValue[]) {
      return { changes: prepare(sql).run(...params.map(bind)).changes };
    },
    transaction<T>(fn: () => T): T {
      return db.transaction(fn)();
    },
  };
}
