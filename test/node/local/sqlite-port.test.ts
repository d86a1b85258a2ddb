// The production SQL adapter (node:sqlite): rows as plain objects, BLOBs as Uint8Array, atomic transactions, WAL on files.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { afterAll, describe, expect, it } from "vitest";
import { openSqlite } from "../../../local-stdio/src/sqlite-port.js";
import { tempDir } from "./helpers/local-cli.js";

describe("openSqlite", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("binds Uint8Array and ArrayBuffer, and returns BLOBs as plain Uint8Array", () => {
    const sql = openSqlite(":memory:");
    sql.run("CREATE TABLE t (id INTEGER PRIMARY KEY, b BLOB, s TEXT, n REAL)");
    const view = new Uint8Array([9, 1, 2, 3, 9]).subarray(1, 4);
    expect(sql.run("INSERT INTO t (b, s, n) VALUES (?, ?, ?)", view, "x", 1.5).changes).toBe(1);
    sql.run("INSERT INTO t (b, s, n) VALUES (?, ?, ?)", new Uint8Array([4, 5]).buffer, null, 2);
    const rows = sql.all<{ b: Uint8Array; s: string | null; n: number }>("SELECT b, s, n FROM t ORDER BY id");
    expect(rows[0].b).toBeInstanceOf(Uint8Array);
    expect(Buffer.isBuffer(rows[0].b)).toBe(false);
    expect([...rows[0].b]).toEqual([1, 2, 3]);
    expect([...rows[1].b]).toEqual([4, 5]);
    expect(rows.map((r) => [r.s, r.n])).toEqual([["x", 1.5], [null, 2]]);
    sql.close();
  });

  it("runs statements that return rows through run, and statements that do not through all", () => {
    const sql = openSqlite(":memory:");
    expect(sql.all("CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)")).toEqual([]);
    expect(sql.run("INSERT INTO t (v) VALUES (?) RETURNING id", "a").changes).toBe(1);
    expect(sql.all("INSERT INTO t (v) VALUES (?) RETURNING id", "b")).toEqual([{ id: 2 }]);
    sql.close();
  });

  it("transaction commits all writes or none", () => {
    const sql = openSqlite(":memory:");
    sql.run("CREATE TABLE t (v TEXT UNIQUE)");
    expect(sql.transaction(() => (sql.run("INSERT INTO t VALUES ('a')"), sql.run("INSERT INTO t VALUES ('b')"), 42))).toBe(42);
    expect(() =>
      sql.transaction(() => {
        sql.run("INSERT INTO t VALUES ('c')");
        sql.run("INSERT INTO t VALUES ('a')"); // unique violation: 'c' must roll back too
      }),
    ).toThrow();
    expect(sql.all<{ v: string }>("SELECT v FROM t ORDER BY v").map((r) => r.v)).toEqual(["a", "b"]);
    sql.close();
  });

  it("a nested transaction that throws rolls back only its own writes", () => {
    const sql = openSqlite(":memory:");
    sql.run("CREATE TABLE t (v TEXT UNIQUE)");
    sql.transaction(() => {
      sql.run("INSERT INTO t VALUES ('outer')");
      expect(() =>
        sql.transaction(() => {
          sql.run("INSERT INTO t VALUES ('inner')");
          throw new Error("inner fails");
        }),
      ).toThrow("inner fails");
      sql.transaction(() => sql.run("INSERT INTO t VALUES ('second')"));
    });
    expect(sql.all<{ v: string }>("SELECT v FROM t ORDER BY v").map((r) => r.v)).toEqual(["outer", "second"]);
    sql.close();
  });

  it("commits with synchronous=NORMAL by default and FULL (fsync per commit) in durable mode", () => {
    const normal = openSqlite(join(tmp.dir, "normal.sqlite"));
    expect(normal.all<{ synchronous: number }>("PRAGMA synchronous")[0].synchronous).toBe(1);
    normal.close();
    const full = openSqlite(join(tmp.dir, "full.sqlite"), { durability: "full" });
    expect(full.all<{ synchronous: number }>("PRAGMA synchronous")[0].synchronous).toBe(2);
    full.close();
  });

  it("opens files in WAL mode and leaves them readable by another connection after close", () => {
    const path = join(tmp.dir, "motebit.sqlite");
    const sql = openSqlite(path);
    sql.run("CREATE TABLE t (v TEXT)");
    sql.run("INSERT INTO t VALUES ('kept')");
    expect(sql.all<{ journal_mode: string }>("PRAGMA journal_mode")[0].journal_mode).toBe("wal");
    sql.close();
    sql.close(); // idempotent
    expect(existsSync(`${path}-wal`)).toBe(false); // checkpointed on close
    const other = openSqlite(path, { readOnly: true });
    expect(other.all("SELECT v FROM t")).toEqual([{ v: "kept" }]);
    expect(() => other.run("INSERT INTO t VALUES ('no')")).toThrow(/readonly/);
    other.close();
  });

  it("waits for another process's write lock instead of failing at once", async () => {
    const path = join(tmp.dir, "busy.sqlite");
    const sql = openSqlite(path);
    sql.run("CREATE TABLE t (v TEXT)");
    // Another process takes the write lock and keeps it 300 ms; our insert must wait for it and then land.
    const holder = `const { DatabaseSync } = require("node:sqlite"); const db = new DatabaseSync(${JSON.stringify(path)});
      db.exec("BEGIN IMMEDIATE"); db.exec("INSERT INTO t VALUES ('theirs')"); process.stdout.write("locked");
      const until = Date.now() + 300; while (Date.now() < until); db.exec("COMMIT");`;
    const child = spawn(process.execPath, ["--no-warnings", "-e", holder], { stdio: ["ignore", "pipe", "inherit"] });
    const [chunk] = (await once(child.stdout!, "data")) as [Buffer];
    expect(chunk.toString()).toBe("locked");
    const t0 = performance.now();
    sql.run("INSERT INTO t VALUES ('ours')");
    expect(performance.now() - t0).toBeGreaterThan(50); // it did wait
    await once(child, "exit");
    expect(sql.all<{ v: string }>("SELECT v FROM t ORDER BY v").map((r) => r.v)).toEqual(["ours", "theirs"]);
    sql.close();
  });

  it("prints nothing on stderr when it loads node:sqlite (no ExperimentalWarning)", () => {
    const adapter = join(import.meta.dirname, "../../../local-stdio/src/sqlite-port.ts");
    const script = `import { openSqlite } from ${JSON.stringify(adapter)}; openSqlite(":memory:").close(); process.emitWarning("still shown", "ExperimentalWarning");`;
    const out = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8" });
    expect(out.status).toBe(0);
    expect(out.stderr).not.toMatch(/SQLite/);
    expect(out.stderr).toMatch(/ExperimentalWarning: still shown/); // other warnings still reach the owner
  });
});
