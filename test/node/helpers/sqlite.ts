// A SqlPort over in-memory SQLite for Node tests: the production adapter of motebit-local, so there is one implementation.
import { openSqlite, type LocalSql } from "../../../local-stdio/src/sqlite-port.js";

export const memorySql = (): LocalSql => openSqlite(":memory:");
