// A fleet motebit's runs through the operator's changes (issue 30): a PATCH while a task runs restarts the motebit
// in place without running the task again (one run, one receipt); a DELETE while a task runs ends it with a
// receipt signed by the retired key and saying why (never -32603); a name made again never receives the retired
// motebit's rows, so a relay retrying an old relay_task_id there gets a new task under the new key.
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import type { FleetAnswer, FleetCaller } from "../../../durable-objects/object-rpc.js";
import type { McpCall } from "../../../src/server/mcp-request.js";
import type { PeerPrincipal as Principal } from "../../../src/callers/signed-token.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { env } from "cloudflare:test";
import { receiptOfResult } from "../../shared/receipt-of-result.js";
import { TASKS } from "../../shared/stateless-request.js";
import { keys, statelessCall } from "../edge/helpers.js";
import { createMotebit, fleetObject } from "./helpers.js";

const CALLER: Principal = { kind: "peer", callerId: keys.known_caller.sovereign_motebit_id, via: "signed_token", trust: "verified" };
const RELAY: Principal = { kind: "peer", callerId: "relay:relay", via: "relay", trust: "verified" };

async function check(name: string) {
  const a = (await fleetObject(name).fleetCaller()) as unknown as FleetAnswer<FleetCaller>;
  if (!a.ok) throw new Error(`${name}: ${a.error}`);
  return { settingsTag: a.value.settingsTag, authorization: null };
}

/** A 2026-07-28 call of `method` by `principal`, with the tasks extension. */
const v2026Call = (principal: Principal, method: string, params: Record<string, unknown>): McpCall => statelessCall(principal, method, params, TASKS);

/** motebit_task as a 2026-07-28 call: followed as an MCP task when `caps` negotiates tasks, answered in place when not. */
const taskCall = (principal: Principal, args: Record<string, unknown>, caps: Record<string, unknown>): McpCall =>
  statelessCall(principal, "tools/call", { name: "motebit_task", arguments: args }, caps);

const rows = <T>(name: string, query: string, ...params: string[]) =>
  runInDurableObject(fleetObject(name), async (_o, state) => state.storage.sql.exec(query, ...params).toArray() as T[]);

async function retireAndRemake(name: string) {
  expect((await fleetObject(name).fleetRetire()).ok).toBe(true);
  await env.MOTEBIT.get(env.MOTEBIT.idFromName("fleet-directory:")).directoryRemove(name);
  return createMotebit(name);
}

it("a PATCH while a task runs: the task runs once and ends in one receipt", async () => {
  const made = await createMotebit("patch-run");
  const res = await fleetObject("patch-run").fleetHandleMcp(taskCall(CALLER, { prompt: "800", required_capabilities: ["slow"] }, TASKS), await check("patch-run"));
  const { taskId } = ((await res.json()) as { result: { taskId: string } }).result;
  await new Promise((r) => setTimeout(r, 100));
  expect((await fleetObject("patch-run").fleetUpdate({ tools: null })).ok).toBe(true);
  let row: { status: string; attempts: number } | undefined;
  for (let i = 0; i < 100; i++) {
    [row] = await rows<{ status: string; attempts: number }>("patch-run", "SELECT status, attempts FROM mcp_tasks WHERE task_id = ?", taskId);
    if (row?.status !== "working") break;
    await new Promise((r) => setTimeout(r, 50));
  }
  expect(row).toEqual({ status: "completed", attempts: 1 });
  await new Promise((r) => setTimeout(r, 900));
  const receipts = await rows<{ json: string }>("patch-run", "SELECT json FROM receipts");
  expect(receipts).toHaveLength(1);
  expect(JSON.parse(receipts[0].json)).toMatchObject({ status: "completed", result: "waited 800ms", motebit_id: made.motebit_id });
});

it("a DELETE during a task: the caller gets a failed receipt signed by the retired key, saying why", async () => {
  const made = await createMotebit("retire-run");
  const pending = fleetObject("retire-run").fleetHandleMcp(taskCall(CALLER, { prompt: "1500", required_capabilities: ["slow"] }, {}), await check("retire-run"));
  await new Promise((r) => setTimeout(r, 200));
  expect((await fleetObject("retire-run").fleetRetire()).ok).toBe(true);
  const body = (await (await pending).json()) as { result?: { content: { text: string }[] }; error?: unknown };
  expect(body.error).toBeUndefined();
  const receipt = receiptOfResult(body.result!);
  expect(receipt).toMatchObject({ status: "failed", result: "Error: task cancelled: this motebit was retired", motebit_id: made.motebit_id });
  expect((await verifyReceipt(receipt)).valid).toBe(true);
});

it("a name made again during a run gets none of the retired motebit's rows; the relay's retry is a new task under the new key", async () => {
  await createMotebit("remade-run");
  const args = { prompt: "1000", required_capabilities: ["slow"], relay_task_id: "relay-task-remade" };
  const first = fleetObject("remade-run").fleetHandleMcp(taskCall(RELAY, args, {}), await check("remade-run"));
  await new Promise((r) => setTimeout(r, 200));
  const second = await retireAndRemake("remade-run");
  const old = receiptOfResult(((await (await first).json()) as { result: { content: { text: string }[] } }).result);
  expect(old.status).toBe("failed");
  expect(await rows("remade-run", "SELECT task_id FROM receipts")).toEqual([]);
  expect(await rows("remade-run", "SELECT at FROM audit_log")).toEqual([]);
  const retry = await fleetObject("remade-run").fleetHandleMcp(taskCall(RELAY, { ...args, prompt: "50" }, {}), await check("remade-run"));
  const fresh = receiptOfResult(((await retry.json()) as { result: { content: { text: string }[] } }).result);
  expect(fresh).toMatchObject({ status: "completed", result: "waited 50ms", motebit_id: second.motebit_id, relay_task_id: "relay-task-remade" });
  expect(fresh.task_id).not.toBe(old.task_id);
  expect((await verifyReceipt(fresh)).valid).toBe(true);
});

it("an MCP task a DELETE ended: polled at the name made again, tasks/get says it ended with the retired motebit", async () => {
  await createMotebit("remade-poll");
  const res = await fleetObject("remade-poll").fleetHandleMcp(taskCall(CALLER, { prompt: "1500", required_capabilities: ["slow"] }, TASKS), await check("remade-poll"));
  const { taskId } = ((await res.json()) as { result: { taskId: string } }).result;
  await new Promise((r) => setTimeout(r, 100));
  await retireAndRemake("remade-poll");
  const poll = async (asker: Principal, id: string) =>
    ((await (await fleetObject("remade-poll").fleetHandleMcp(v2026Call(asker, "tasks/get", { taskId: id }), await check("remade-poll"))).json()) as {
      error?: { code: number; message: string };
    }).error;
  expect(await poll(CALLER, taskId)).toEqual({ code: -32602, message: `Task ${taskId} ended when the motebit that ran it was retired; this name now serves another motebit, with another key` });
  // Another caller, or an id that never was, still gets "unknown task".
  expect((await poll(RELAY, taskId))?.message).toBe(`Unknown task: ${taskId}`);
  expect((await poll(CALLER, "0".repeat(32)))?.message).toBe(`Unknown task: ${"0".repeat(32)}`);
});
