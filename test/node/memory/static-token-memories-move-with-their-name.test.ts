// Before named static tokens there was one static caller, "static"; its token is now the token named "static"
// (caller "static:static"). What that caller remembered before the upgrade must stay readable by the same token.
import { expect, it } from "vitest";
import { MEMORY_SCHEMA, migrateMemory } from "../../../src/memory/schema.js";
import { memorySql } from "../helpers/sqlite.js";

it("a database from before named tokens gives the old static caller's memories to the token named static", () => {
  const sql = memorySql();
  // As a release before versions left it: the tables, no schema_versions row.
  MEMORY_SCHEMA.forEach((statement) => sql.run(statement));
  const insert = (id: string, scope: string, source: string | null) =>
    sql.run(
      "INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days, created_at, last_accessed_at) " +
        "VALUES (?, 'x', 'none', 'peer', ?, ?, 'episodic', 1, 30, 0, 0)",
      id, source, scope,
    );
  insert("a", "peer:static", "static");
  insert("b", "peer:did:key:z6Mkpeer", "did:key:z6Mkpeer");
  insert("c", "owner", null);
  migrateMemory(sql);
  migrateMemory(sql);
  expect(sql.all("SELECT id, scope, source_id FROM memory_nodes ORDER BY id")).toEqual([
    { id: "a", scope: "peer:static:static", source_id: "static:static" },
    { id: "b", scope: "peer:did:key:z6Mkpeer", source_id: "did:key:z6Mkpeer" },
    { id: "c", scope: "owner", source_id: null },
  ]);
});
