// A task's audit rows are held in a batch and written in one transaction with the task's receipt: all or nothing.
import { expect, it } from "vitest";
import { AuditLog } from "../../../src/policy/audit-log.js";
import { memorySql } from "../helpers/sqlite.js";

const row = (tool: string, at: number) => ({ tool, caller: "peer:a", args: { n: at }, outcome: "allowed" as const, at });

it("holds rows until commit, then writes them with the other write, in order", () => {
  const sql = memorySql();
  const log = new AuditLog(sql);
  log.migrate();
  sql.run("CREATE TABLE receipts (id TEXT)");
  const batch = log.batch();
  batch.record(row("echo", 1));
  batch.record(row("word_count", 2));
  expect(log.list()).toEqual([]);
  batch.commit(() => sql.run("INSERT INTO receipts (id) VALUES ('r1')"));
  expect(log.list().map((r) => r.tool)).toEqual(["word_count", "echo"]);
  expect(sql.all("SELECT id FROM receipts")).toEqual([{ id: "r1" }]);
  // Committed rows are not written twice; the batch takes new rows after.
  batch.record(row("model", 3));
  batch.commit();
  expect(log.list().map((r) => r.tool)).toEqual(["model", "word_count", "echo"]);
});

it("writes nothing when the other write fails", () => {
  const sql = memorySql();
  const log = new AuditLog(sql);
  log.migrate();
  const batch = log.batch();
  batch.record(row("echo", 1));
  expect(() => batch.commit(() => sql.run("INSERT INTO no_such_table VALUES (1)"))).toThrow();
  expect(log.list()).toEqual([]);
});
