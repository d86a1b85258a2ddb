// A synchronous motebit_task (no tasks extension) is kept from its admission (issue 42 item 9): a call that ends
// leaves its receipt bound to its row and no row behind; one whose host stopped during it is not run again, and the
// next start signs what happened: the outcome its tool step kept, or a failed receipt saying it was interrupted.
// The kill is simulated here (the row's lease handed to a host that is gone); the real SIGKILL of motebit-local is
// test/node/local/sigkilled-sync-task-gets-one-receipt.test.ts.
import { afterAll, describe, expect, it } from "vitest";
import { verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { INTERRUPTED } from "../../../src/agent/task.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { leasesLapse } from "../helpers/host-crash.js";
import { memorySql } from "../helpers/sqlite.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless, TASKS } from "../helpers/stateless-post.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";

// Each start of the tool is logged; "block" never answers on its own (the host is stopped under it).
const runs: string[] = [];
const held: ServedTool = {
  definition: { name: "held", description: "Logs its run; answers at once, or never for 'block'.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: async (args) => {
    runs.push(String(args.text));
    if (String(args.text).startsWith("block")) await new Promise(() => {});
    return { ok: true, data: `ran ${String(args.text)}` };
  },
};

const hosts: ProtocolHost[] = [];
const start = async (sql: ProtocolHost["sql"]) => {
  const h = await startProtocolHost({}, [held], sql);
  hosts.push(h);
  return h;
};
afterAll(async () => Promise.allSettled(hosts.map((h) => h.close())));

/** A 2026-07-28 tools/call from a client without the tasks extension: the call is answered when the task ends. */
function callSync(h: ProtocolHost, prompt: string) {
  return postStateless(h.http.url, "tools/call", { name: "motebit_task", arguments: { prompt, required_capabilities: ["held"] } });
}

const syncRows = (sql: ProtocolHost["sql"]) => sql.all<{ task_id: string; outcome: string | null }>("SELECT task_id, outcome FROM mcp_tasks WHERE admission IS NOT NULL");
const receiptsOf = (sql: ProtocolHost["sql"], runId: string) =>
  sql.all<{ json: string }>("SELECT json FROM receipts WHERE run_id = ?", runId).map((r) => JSON.parse(r.json) as ExecutionReceipt);

async function admitted(sql: ProtocolHost["sql"]): Promise<string> {
  for (let i = 0; i < 200; i++) {
    const [row] = syncRows(sql);
    if (row) return row.task_id;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error("the synchronous call was never kept");
}

async function oneReceipt(sql: ProtocolHost["sql"], runId: string): Promise<ExecutionReceipt> {
  for (let i = 0; i < 200 && receiptsOf(sql, runId).length === 0; i++) await new Promise((r) => setTimeout(r, 10));
  // Long enough for a second receipt, had a second run started.
  await new Promise((r) => setTimeout(r, 200));
  const receipts = receiptsOf(sql, runId);
  expect(receipts).toHaveLength(1);
  expect((await verifyReceipt(receipts[0])).valid).toBe(true);
  return receipts[0];
}

describe("a synchronous motebit_task is kept from its admission", () => {
  it("a call that ends answers with the receipt bound to its row, and leaves no row behind", async () => {
    const sql = memorySql();
    const h = await start(sql);
    const answered = receiptOfResult((await callSync(h, "at once")).body.result);
    expect(answered).toMatchObject({ status: "completed", result: "ran at once" });
    const [row] = sql.all<{ run_id: string | null; json: string }>("SELECT run_id, json FROM receipts");
    expect(row.run_id).not.toBeNull();
    expect(JSON.parse(row.json)).toEqual(answered);
    expect(syncRows(sql)).toEqual([]);
  });

  it("a host stopped during the call's tool step: the next start signs a failed 'interrupted' receipt and runs nothing", async () => {
    const sql = memorySql();
    const first = await start(sql);
    void callSync(first, "block once").catch(() => {});
    const runId = await admitted(sql);
    for (let i = 0; i < 100 && !runs.includes("block once"); i++) await new Promise((r) => setTimeout(r, 10));
    expect(receiptsOf(sql, runId)).toEqual([]);
    leasesLapse(sql);
    await start(sql);
    const receipt = await oneReceipt(sql, runId);
    expect(receipt).toMatchObject({ status: "failed", result: INTERRUPTED, tools_used: [] });
    expect(runs.filter((r) => r === "block once")).toHaveLength(1);
    expect(syncRows(sql)).toEqual([]);
  });

  it("a host stopped after the tool step ended, before its receipt: the next start signs the kept outcome", async () => {
    const sql = memorySql();
    const first = await start(sql);
    void callSync(first, "block then kept").catch(() => {});
    const runId = await admitted(sql);
    // What a kill while the receipt was being signed leaves: the tool step's outcome kept, no receipt.
    sql.run("UPDATE mcp_tasks SET outcome = ? WHERE task_id = ?", JSON.stringify({ status: "completed", result: "the step ended", toolsUsed: ["held"] }), runId);
    leasesLapse(sql);
    await start(sql);
    const receipt = await oneReceipt(sql, runId);
    expect(receipt).toMatchObject({ status: "completed", result: "the step ended", tools_used: ["held"] });
    expect(runs.filter((r) => r === "block then kept")).toHaveLength(1);
    expect(syncRows(sql)).toEqual([]);
  });

  it("a kept call is no task: tasks/get does not know it", async () => {
    const sql = memorySql();
    const first = await start(sql);
    void callSync(first, "block hidden").catch(() => {});
    const runId = await admitted(sql);
    const res = await postStateless(first.http.url, "tasks/get", { taskId: runId }, { caps: TASKS, id: 2 });
    expect(res.body.error!.message).toBe(`Unknown task: ${runId}`);
  });
});
