// The Durable Object's SqlPort reports the rows a statement changed (not the billing count of rows written).
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { durableSqlPort } from "../../../durable-objects/sql-port.js";
import { motebitStub } from "./helpers.js";

it("run() returns SQLite's changes for inserts, no-op upserts, updates and deletes on indexed tables", async () => {
  await runInDurableObject(motebitStub(), (_o, state) => {
    const sql = durableSqlPort(state.storage);
    sql.run("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)");
    sql.run("CREATE INDEX t_v ON t (v)");
    const upsert = "INSERT INTO t (k, v) VALUES (?, ?) ON CONFLICT (k) DO NOTHING";
    expect(sql.run(upsert, "a", 1)).toEqual({ changes: 1 });
    expect(sql.run(upsert, "a", 1)).toEqual({ changes: 0 });
    expect(sql.run(upsert, "b", 2)).toEqual({ changes: 1 });
    expect(sql.run("UPDATE t SET v = v + 10")).toEqual({ changes: 2 });
    expect(sql.run("DELETE FROM t WHERE k = ?", "zzz")).toEqual({ changes: 0 });
    expect(sql.run("DELETE FROM t")).toEqual({ changes: 2 });
    expect(sql.transaction(() => sql.all("SELECT count(*) AS n FROM t"))).toEqual([{ n: 0 }]);
  });
});
