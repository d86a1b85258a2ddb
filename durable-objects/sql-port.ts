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
