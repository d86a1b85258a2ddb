// motebit.sqlite and its -wal and -shm files hold memories and receipts: they are 0600 whatever the folder's mode
// (an existing 0755 --data-dir) or the process umask, and an existing 0644 database is narrowed when opened.
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync as Database } from "node:sqlite";
import { afterAll, afterEach, beforeEach, expect, it } from "vitest";
import { openSqlite } from "../../../local-stdio/src/sqlite-port.js";
import { tempDir } from "./helpers/local-cli.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());
let umask: number;
// A permissive umask, as many machines have: the files must be 0600 anyway.
beforeEach(() => void (umask = process.umask(0o022)));
afterEach(() => void process.umask(umask));

const mode = (path: string) => statSync(path).mode & 0o777;
const files = (db: string) => [db, `${db}-wal`, `${db}-shm`];

function openFolder(name: string): string {
  const dir = join(tmp.dir, name);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return dir;
}

it("a new database in an existing 0755 folder, and its WAL and shared-memory files, are 0600", () => {
  const db = join(openFolder("new"), "motebit.sqlite");
  const sql = openSqlite(db);
  sql.run("CREATE TABLE t (x TEXT)");
  sql.run("INSERT INTO t VALUES ('a memory')");
  for (const f of files(db)) expect(mode(f), f).toBe(0o600);
  sql.close();
});

it("an existing 0644 database and its 0644 WAL files are narrowed to 0600 when opened", () => {
  const db = join(openFolder("old"), "motebit.sqlite");
  const before = new Database(db);
  before.exec("PRAGMA journal_mode = WAL");
  before.exec("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('kept')");
  for (const f of files(db)) chmodSync(f, 0o644);
  const sql = openSqlite(db);
  expect(sql.all<{ x: string }>("SELECT x FROM t")).toEqual([{ x: "kept" }]);
  for (const f of files(db)) expect(mode(f), f).toBe(0o600);
  sql.close();
  before.close();
});

it("a data folder path that is not a database is still refused by SQLite, not replaced", () => {
  const db = join(openFolder("text"), "motebit.sqlite");
  writeFileSync(db, "not a database, but mine", { mode: 0o644 });
  expect(() => openSqlite(db).all("SELECT 1 FROM sqlite_master")).toThrow();
  expect(readFileSync(db, "utf8")).toBe("not a database, but mine");
});
