// ctx.storage.sql as the core's SqlPort: the same schema and queries as motebit-local's node:sqlite.
import type { SqlPort, SqlValue } from "../src/index.js";

export function durableSqlPort(storage: DurableObjectStorage): SqlPort {
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return storage.sql.exec(query, ...params).toArray() as T[];
    },
    run(query: string, ...params: SqlValue[]) {
      const cursor = storage.sql.exec(query, ...params);
      cursor.toArray(); // run to completion: rowsWritten is only final then
      // rowsWritten is a billing figure that counts index rows too; changes() is the row count the port promises.
      if (cursor.rowsWritten === 0) return { changes: 0 };
      return { changes: storage.sql.exec<{ n: number }>("SELECT changes() AS n").one().n };
    },
    transaction<T>(fn: () => T): T {
      return storage.transactionSync(fn);
    },
  };
}

/**
 * The port one incarnation of a fleet motebit uses: once `current()` is false (the name was retired, maybe made
 * again over the same storage), its writes are dropped and its reads find nothing. A retired motebit's runs still
 * finish (and answer their callers), but never write into, or read from, whoever holds the name next.
 */
export function fencedSqlPort(sql: SqlPort, current: () => boolean): SqlPort {
  return {
    all<T>(query: string, ...params: SqlValue[]): T[] {
      return current() ? sql.all<T>(query, ...params) : [];
    },
    run(query: string, ...params: SqlValue[]) {
      return current() ? sql.run(query, ...params) : { changes: 0 };
    },
    transaction<T>(fn: () => T): T {
      return current() ? sql.transaction(fn) : fn();
    },
  };
}
