// The Durable Object's SQLite as each of the two previous releases left it (test/fixtures/upgrade/<release>/edge,
// written through that release's Worker: scripts/upgrade-fixtures/) opens under this one: the object starts,
// serves, records every store at its current schema version, and keeps every memory, receipt, used jti and task.
// A store whose schema a newer release wrote is refused: the object answers with the message and leaves that store as it is.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import release9330a1d from "../../fixtures/upgrade/9330a1d/edge/object-rows.json";
import release4fbfd47 from "../../fixtures/upgrade/4fbfd47/edge/object-rows.json";
import { motebitStub, postStateless } from "./helpers.js";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";

// Stores with steps after the first (issues 25 and 30); every other store is at its step 1.
const CURRENT_VERSION: Record<string, number> = { mcp_tasks: 4, receipts: 2, receipt_log: 2, memory: 2 };

type Value = string | number | null | { $base64: string };
interface Dump {
  objects: { type: string; name: string; sql: string }[];
  rows: Record<string, Record<string, Value>[]>;
}

const decode = (v: Value): string | number | null | ArrayBuffer =>
  v !== null && typeof v === "object" ? Uint8Array.from(atob(v.$base64), (c) => c.charCodeAt(0)).buffer : v;
const encode = (v: unknown): Value => (v instanceof ArrayBuffer ? { $base64: btoa(String.fromCharCode(...new Uint8Array(v))) } : (v as Value));

/** A fresh object holding exactly the dumped tables and rows, not yet started. */
async function loadDump(dump: Dump): Promise<void> {
  await runInDurableObject(motebitStub(), async (_o, state) => state.storage.deleteAll());
  await abortAllDurableObjects();
  await runInDurableObject(motebitStub(), (_o, state) => {
    for (const o of dump.objects) state.storage.sql.exec(o.sql);
    for (const [table, rows] of Object.entries(dump.rows)) {
      for (const row of rows) {
        const cols = Object.keys(row);
        state.storage.sql.exec(`INSERT INTO "${table}" (${cols.join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`, ...cols.map((c) => decode(row[c])));
      }
    }
  });
}

function tableRows(table: string, columns = "*"): Promise<Record<string, Value>[]> {
  return runInDurableObject(motebitStub(), (_o, state) =>
    state.storage.sql.exec(`SELECT ${columns} FROM "${table}" ORDER BY rowid`).toArray().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, encode(v)]))),
  );
}

const pick = (rows: Record<string, Value>[], columns: string[]) => rows.map((r) => Object.fromEntries(columns.map((c) => [c, r[c]])));
const TASK_COLUMNS = ["task_id", "caller_id", "principal", "envelope", "tool", "args", "status", "created_at", "updated_at", "ttl_ms", "result", "error", "input_requests", "answers"];

/** A 2026-07-28 echo with the static token: starts the object and uses no jti, session or task. */
const echo = () => postStateless("tools/call", { name: "echo", arguments: { text: "upgraded" } });

describe.each([
  ["9330a1d", release9330a1d as Dump],
  ["4fbfd47", release4fbfd47 as Dump],
])("the object's SQLite as release %s left it", (_release, dump) => {
  it("starts, serves, and keeps every memory, receipt, used jti and task, at the latest schema version of every store", async () => {
    expect(dump.rows.memory_nodes).toHaveLength(2);
    expect(dump.rows.receipts).toHaveLength(3);
    expect(dump.rows.jti_seen.length).toBeGreaterThan(0);
    expect(dump.rows.mcp_tasks).toHaveLength(2);
    await loadDump(dump);

    const res = await echo();
    expect(res.status).toBe(200);
    expect(((await res.json()) as { result: { content: { text: string }[] } }).result.content[0].text).toMatch(/^upgraded\n\[motebit:/);

    // Every memory kept as written; its vector may be made again by today's default embedder.
    const MEMORY_COLUMNS = ["id", "content", "sensitivity", "provenance", "source_id", "scope", "memory_type", "confidence", "half_life_days", "created_at", "forgotten_at"];
    // The old single static caller's memories belong to the token named "static" now (memory step 2).
    const renamed = dump.rows.memory_nodes.map((r) =>
      r.scope === "peer:static" ? { ...r, scope: "peer:static:static", source_id: "static:static" } : r,
    );
    expect(renamed.some((r) => r.scope === "peer:static:static")).toBe(true);
    expect(pick(await tableRows("memory_nodes"), MEMORY_COLUMNS)).toEqual(pick(renamed, MEMORY_COLUMNS));
    expect(await tableRows("receipts", Object.keys(dump.rows.receipts[0]).join(", "))).toEqual(dump.rows.receipts);
    expect(await tableRows("jti_seen")).toEqual(dump.rows.jti_seen);
    // The release's receipts entered the transparency log in ledger order, each leaf over its canonical JSON.
    expect(await tableRows("log_leaves", "leaf_index, task_id, leaf_hash")).toEqual(
      dump.rows.receipts.map((r, i) => ({ leaf_index: i, task_id: r.task_id, leaf_hash: receiptLeafHash(JSON.parse(r.json as string) as object) })),
    );
    expect(pick(await tableRows("mcp_tasks"), TASK_COLUMNS)).toEqual(pick(dump.rows.mcp_tasks, TASK_COLUMNS));
    expect(await tableRows("mcp_tasks", "DISTINCT attempts")).toEqual([{ attempts: 1 }]);
    // The release's tasks stay tasks (mcp_tasks 3 keeps synchronous calls beside them, issue 42).
    expect(await tableRows("mcp_tasks", "DISTINCT admission")).toEqual([{ admission: null }]);
    expect(await tableRows("schema_versions", "store, version")).toEqual(
      expect.arrayContaining(["host_meta", "memory", "receipts", "receipt_log", "audit_log", "credentials", "jti_seen", "mcp_sessions", "rate_buckets", "mcp_tasks"].map((store) => ({ store, version: CURRENT_VERSION[store] ?? 1 }))),
    );
  });
});

it("an object whose receipts a newer release wrote answers with a message saying so, and leaves them as they are", async () => {
  await loadDump(release4fbfd47 as Dump);
  await runInDurableObject(motebitStub(), (_o, state) => {
    state.storage.sql.exec("CREATE TABLE schema_versions (store TEXT PRIMARY KEY, version INTEGER NOT NULL)");
    state.storage.sql.exec("INSERT INTO schema_versions (store, version) VALUES ('receipts', 3)");
  });
  const res = await echo();
  expect(res.status).toBe(503);
  expect(await res.text()).toContain("this database's receipts tables are at schema version 3, but this release knows only up to version 2: a newer release wrote them");
  expect(await tableRows("receipts", Object.keys(release4fbfd47.rows.receipts[0]).join(", "))).toEqual(release4fbfd47.rows.receipts);
  expect(await tableRows("schema_versions", "store, version")).toContainEqual({ store: "receipts", version: 3 });
});
