// The migration runner: each store's steps run once, in order, with the version recorded beside them; a database
// from a newer release is refused and left as it was; a failing step leaves neither its changes nor a new version.
import { describe, expect, it } from "vitest";
import type { SqlPort } from "../../../src/ports.js";
import { migrate, type StoreSchema } from "../../../src/storage/migrations.js";
import { memorySql } from "../helpers/sqlite.js";

const version = (sql: ReturnType<typeof memorySql>, store: string) =>
  sql.all<{ version: number }>("SELECT version FROM schema_versions WHERE store = ?", store)[0]?.version;

describe("migrate", () => {
  it("runs every step of a new store once and records the last step's number", () => {
    const sql = memorySql();
    const runs: number[] = [];
    const schema: StoreSchema = {
      store: "notes",
      steps: [
        (s) => (runs.push(1), void s.run("CREATE TABLE notes (id TEXT PRIMARY KEY)")),
        (s) => (runs.push(2), void s.run("ALTER TABLE notes ADD COLUMN body TEXT")),
      ],
    };
    migrate(sql, schema);
    migrate(sql, schema);
    expect(runs).toEqual([1, 2]);
    expect(version(sql, "notes")).toBe(2);
    sql.run("INSERT INTO notes (id, body) VALUES ('a', 'kept')");
  });

  it("runs only the steps added since the database's version, and keeps the rows", () => {
    const sql = memorySql();
    const step1 = (s: SqlPort) => void s.run("CREATE TABLE notes (id TEXT PRIMARY KEY)");
    migrate(sql, { store: "notes", steps: [step1] });
    sql.run("INSERT INTO notes (id) VALUES ('a')");
    migrate(sql, { store: "notes", steps: [step1, (s) => void s.run("ALTER TABLE notes ADD COLUMN body TEXT DEFAULT 'x'")] });
    expect(version(sql, "notes")).toBe(2);
    expect(sql.all("SELECT id, body FROM notes")).toEqual([{ id: "a", body: "x" }]);
  });

  it("keeps one version per store", () => {
    const sql = memorySql();
    migrate(sql, { store: "a", steps: [(s) => void s.run("CREATE TABLE a (x)")] });
    migrate(sql, { store: "b", steps: [(s) => void s.run("CREATE TABLE b (x)"), (s) => void s.run("CREATE TABLE b2 (x)")] });
    expect([version(sql, "a"), version(sql, "b")]).toEqual([1, 2]);
  });

  it("refuses a database a newer release wrote, saying so, and changes nothing", () => {
    const sql = memorySql();
    migrate(sql, { store: "notes", steps: [(s) => void s.run("CREATE TABLE notes (id TEXT)"), (s) => void s.run("CREATE TABLE notes2 (id TEXT)")] });
    let ran = false;
    expect(() => migrate(sql, { store: "notes", steps: [() => void (ran = true)] })).toThrow(
      /notes tables are at schema version 2, but this release knows only up to version 1: a newer release wrote them/,
    );
    expect(ran).toBe(false);
    expect(version(sql, "notes")).toBe(2);
  });

  it("a step that fails leaves the database at its old version, without the earlier steps' changes", () => {
    const sql = memorySql();
    const step1 = (s: SqlPort) => void s.run("CREATE TABLE notes (id TEXT)");
    migrate(sql, { store: "notes", steps: [step1] });
    const broken: StoreSchema = {
      store: "notes",
      steps: [step1, (s) => void s.run("CREATE TABLE extra (id TEXT)"), (s) => void s.run("ALTER TABLE missing ADD COLUMN x")],
    };
    expect(() => migrate(sql, broken)).toThrow(/no such table: missing/);
    expect(version(sql, "notes")).toBe(1);
    expect(sql.all("SELECT name FROM sqlite_master WHERE name = 'extra'")).toEqual([]);
  });
});
