// One task, one run, one receipt (issue 30). A second host started on the same database while a task runs (a
// restart in place, a second process on the same data dir) leaves the running task to its run: the tool runs
// once and the task has one receipt. A task whose receipt was stored but whose row was left `working` (a host
// killed between the two, before they committed together) answers with that receipt when resumed, and runs nothing;
// one killed while its receipt was being signed signs the outcome its tool step kept, and runs nothing.
import { afterAll, describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { memorySql } from "../helpers/sqlite.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless, TASKS } from "../helpers/stateless-post.js";
import { receiptOfTask } from "../helpers/task-rows.js";


// Each execution is logged: the count of runs per prompt is what the tests assert.
const runs: string[] = [];
const counted: ServedTool = {
  definition: { name: "counted", description: "Logs its run, answers after 300 ms.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: async (args) => {
    runs.push(String(args.text));
    await new Promise((r) => setTimeout(r, 300));
    return { ok: true, data: `ran ${String(args.text)}` };
  },
};

const hosts: ProtocolHost[] = [];
const start = async (sql: ProtocolHost["sql"]) => {
  const h = await startProtocolHost({}, [counted], sql);
  hosts.push(h);
  return h;
};
afterAll(async () => Promise.allSettled(hosts.map((h) => h.close())));

async function createTask(h: ProtocolHost, prompt: string): Promise<string> {
  const { body } = await postStateless(h.http.url, "tools/call", { name: "motebit_task", arguments: { prompt, required_capabilities: ["counted"] } }, { caps: TASKS });
  expect(body.result!.resultType).toBe("task");
  return body.result!.taskId as string;
}

const receiptsFor = (h: ProtocolHost, result: string) => h.motebit.ledger.list({ limit: 500 }).filter((s) => s.receipt.result === result);

describe("one task, one run, one receipt", () => {
  it("a host started on the same database while a task runs does not run it again: one run, one receipt", async () => {
    const sql = memorySql();
    const first = await start(sql);
    const id = await createTask(first, "in place");
    for (let i = 0; i < 100 && !runs.includes("in place"); i++) await new Promise((r) => setTimeout(r, 10));
    // The restart in place: a new host (new engine, new motebit) over the same database, the first run still going.
    const second = await start(sql);
    const receipt = await receiptOfTask(sql, id);
    expect(receipt).toMatchObject({ status: "completed", result: "ran in place" });
    // Long enough for a second run, had one started, to finish and store its receipt.
    await new Promise((r) => setTimeout(r, 500));
    expect(runs.filter((r) => r === "in place")).toHaveLength(1);
    expect(receiptsFor(second, "ran in place")).toHaveLength(1);
  });

  it("a resumed task whose receipt is already stored answers with it and runs nothing", async () => {
    const sql = memorySql();
    const first = await start(sql);
    const id = await createTask(first, "kept");
    const receipt = await receiptOfTask(sql, id);
    await first.close();
    // What a kill between the receipt and the task row used to leave: the receipt stored, the row still working.
    sql.run("UPDATE mcp_tasks SET status = 'working', result = NULL WHERE task_id = ?", id);
    const second = await start(sql);
    const again = await receiptOfTask(sql, id);
    expect(again).toEqual(receipt);
    expect((await verifyReceipt(again)).valid).toBe(true);
    expect(runs.filter((r) => r === "kept")).toHaveLength(1);
    expect(receiptsFor(second, "ran kept")).toHaveLength(1);
  });

  it("a task killed after its tool ran but before its receipt was signed signs the kept outcome and runs nothing", async () => {
    const sql = memorySql();
    const first = await start(sql);
    const id = await createTask(first, "signed later");
    await receiptOfTask(sql, id);
    await first.close();
    // What a kill while the receipt was being signed leaves: the tool's outcome kept, no receipt, the row working.
    sql.run("DELETE FROM receipts WHERE run_id = ?", id);
    sql.run("UPDATE mcp_tasks SET status = 'working', result = NULL, lease_owner = 'a host that was killed', lease_expires = 0 WHERE task_id = ?", id);
    const second = await start(sql);
    const receipt = await receiptOfTask(sql, id);
    expect(receipt).toMatchObject({ status: "completed", result: "ran signed later", tools_used: ["counted"] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    expect(runs.filter((r) => r === "signed later")).toHaveLength(1);
    expect(receiptsFor(second, "ran signed later")).toHaveLength(1);
  });
});
