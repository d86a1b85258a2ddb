import { describe, expect, it } from "vitest";
import { ReceiptLedger } from "../../../src/log/receipt-ledger.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { memorySql } from "../helpers/sqlite.js";
import { steppingClock, task } from "../agent/task-fixture.js";

async function ledgerWith(n: number) {
  const sql = memorySql();
  const ledger = new ReceiptLedger(sql);
  ledger.migrate();
  ledger.migrate(); // idempotent
  const clock = steppingClock();
  const receipts = [];
  for (let i = 0; i < n; i++) {
    const r = await task({ prompt: `task ${i}`, clock, relayTaskId: i === 1 ? "relay-1" : undefined });
    ledger.append(r, i % 2 ? "peer:abc" : "owner");
    receipts.push(r);
  }
  return { sql, ledger, receipts };
}

describe("ReceiptLedger", () => {
  it("gives back a receipt exactly as signed, still verifiable", async () => {
    const { ledger, receipts } = await ledgerWith(2);
    const stored = ledger.get(receipts[1].task_id)!;
    expect(stored.receipt).toEqual(receipts[1]);
    expect(stored.caller).toBe("peer:abc");
    expect(stored.createdAt).toBe(receipts[1].completed_at);
    expect((await verifyReceipt(stored.receipt, { checkResultHash: true })).valid).toBe(true);
    expect(ledger.get("missing")).toBeUndefined();
  });

  it("lists newest first, with limit and offset", async () => {
    const { ledger, receipts } = await ledgerWith(5);
    const ids = (xs: { receipt: { task_id: string } }[]) => xs.map((x) => x.receipt.task_id);
    const newestFirst = receipts.map((r) => r.task_id).reverse();
    expect(ids(ledger.list())).toEqual(newestFirst);
    expect(ids(ledger.list({ limit: 2 }))).toEqual(newestFirst.slice(0, 2));
    expect(ids(ledger.list({ limit: 2, offset: 2 }))).toEqual(newestFirst.slice(2, 4));
    expect(ledger.list({ limit: -3 })).toEqual([]);
    expect(ledger.count()).toBe(5);
  });

  it("indexes relay_task_id and refuses a second receipt with the same task_id", async () => {
    const { sql, ledger, receipts } = await ledgerWith(2);
    expect(sql.all("SELECT task_id FROM receipts WHERE relay_task_id = ?", "relay-1")).toEqual([{ task_id: receipts[1].task_id }]);
    expect(() => ledger.append(receipts[0], "owner")).toThrow(/UNIQUE/);
  });
});
