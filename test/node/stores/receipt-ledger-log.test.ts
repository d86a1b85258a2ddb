// The ledger and the transparency log move together: a stored receipt is always a leaf (in ledger order), a receipt
// that fails to store leaves no leaf, and a leaf that fails to append leaves no receipt. A ledger from before the log
// enters it, in ledger order, when it is first opened.
import { describe, expect, it } from "vitest";
import { LOG_SCHEMA, LogStore, receiptProof } from "../../../src/log/log-store.js";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { RECEIPT_SCHEMA, ReceiptLedger } from "../../../src/log/receipt-ledger.js";
import { migrate } from "../../../src/storage/migrations.js";
import { memorySql } from "../helpers/sqlite.js";
import { steppingClock, task } from "../agent/task-fixture.js";

async function receipts(n: number) {
  const clock = steppingClock();
  const out = [];
  for (let i = 0; i < n; i++) out.push(await task({ prompt: `task ${i}`, clock }));
  return out;
}

const leafRows = (sql: ReturnType<typeof memorySql>) => sql.all<{ leaf_index: number; task_id: string; leaf_hash: string }>("SELECT leaf_index, task_id, leaf_hash FROM log_leaves ORDER BY leaf_index");

describe("the receipt ledger and its log", () => {
  it("appends each stored receipt as the next leaf, hashed over its canonical JSON", async () => {
    const sql = memorySql();
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    const rs = await receipts(3);
    rs.forEach((r, i) => expect(ledger.append(r, "owner")).toBe(i));
    expect(leafRows(sql)).toEqual(rs.map((r, i) => ({ leaf_index: i, task_id: r.task_id, leaf_hash: receiptLeafHash(r) })));
  });

  it("a receipt refused by the ledger (a second one for the task) adds no leaf; a leaf that cannot be appended stores no receipt", async () => {
    const sql = memorySql();
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    const [a, b] = await receipts(2);
    ledger.append(a, "owner");
    expect(() => ledger.append({ ...a, result: "again" }, "owner")).toThrow();
    expect(ledger.count()).toBe(1);
    expect(leafRows(sql)).toHaveLength(1);
    // Leaf 1 completes the subtree over leaves 0-1: with that node's table gone, its append fails, and so does the receipt's.
    sql.run("ALTER TABLE log_nodes RENAME TO log_nodes_gone");
    expect(() => ledger.append(b, "owner")).toThrow();
    expect(ledger.get(b.task_id)).toBeUndefined();
    expect(leafRows(sql)).toHaveLength(1);
  });

  it("a ledger from before the log enters it at first open, in ledger order (not by time), once", async () => {
    const sql = memorySql();
    // The ledger as the previous release left it: receipts, no log.
    migrate(sql, RECEIPT_SCHEMA);
    const rs = await receipts(5);
    const order = [3, 0, 4, 1, 2];
    for (const i of order) {
      sql.run("INSERT INTO receipts (task_id, caller, status, created_at, json) VALUES (?, 'owner', ?, ?, ?)", rs[i].task_id, rs[i].status, rs[i].completed_at, JSON.stringify(rs[i]));
    }
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    ledger.migrate();
    expect(leafRows(sql)).toEqual(order.map((i, n) => ({ leaf_index: n, task_id: rs[i].task_id, leaf_hash: receiptLeafHash(rs[i]) })));
    expect(sql.all("SELECT version FROM schema_versions WHERE store = 'receipt_log'")).toEqual([{ version: 2 }]);
  });

  it("a log from the previous release (a UNIQUE leaf hash) keeps its leaves and tree on upgrade, finds each leaf by its hash, and appends on", async () => {
    const sql = memorySql();
    migrate(sql, RECEIPT_SCHEMA);
    const rs = await receipts(6);
    for (const r of rs.slice(0, 5)) {
      sql.run("INSERT INTO receipts (task_id, caller, status, created_at, json) VALUES (?, 'owner', ?, ?, ?)", r.task_id, r.status, r.completed_at, JSON.stringify(r));
    }
    // The log as the previous release left it: its schema's first step only.
    migrate(sql, { store: LOG_SCHEMA.store, steps: LOG_SCHEMA.steps.slice(0, 1) });
    const before = { leaves: leafRows(sql), nodes: sql.all("SELECT level, idx, hash FROM log_nodes ORDER BY level, idx") };
    expect(sql.all("SELECT name FROM sqlite_master WHERE tbl_name = 'log_leaves' AND type = 'index'")).toEqual([{ name: "sqlite_autoindex_log_leaves_1" }]);

    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    expect(sql.all("SELECT version FROM schema_versions WHERE store = 'receipt_log'")).toEqual([{ version: 2 }]);
    expect(sql.all("SELECT name FROM sqlite_master WHERE tbl_name = 'log_leaves' AND type = 'index'")).toEqual([{ name: "log_leaves_by_hash_prefix" }]);
    expect({ leaves: leafRows(sql), nodes: sql.all("SELECT level, idx, hash FROM log_nodes ORDER BY level, idx") }).toEqual(before);
    const log = new LogStore(sql);
    rs.slice(0, 5).forEach((r, i) => expect(log.leafByHash(receiptLeafHash(r))).toEqual({ leafIndex: i, leafHash: receiptLeafHash(r), taskId: r.task_id }));
    // A hash sharing a stored leaf's 48-bit prefix is not that leaf: the full hash decides.
    const h = receiptLeafHash(rs[0]);
    expect(log.leafByHash(h.slice(0, 12) + (h[12] === "0" ? "1" : "0") + h.slice(13))).toBeUndefined();
    expect(ledger.append(rs[5], "owner")).toBe(5);
    expect(receiptProof(log, rs[5])).toMatchObject({ leaf_index: 5, tree_size: 6 });
  });
});
