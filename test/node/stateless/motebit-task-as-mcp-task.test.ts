// The MCP tasks extension: a 2026-07-28 client that negotiates it gets a task handle for motebit_task at once,
// polls tasks/get, and finds the same signed receipt inlined at the end; tasks/cancel leaves a signed `failed`
// receipt; task rows survive a restart of the host. A client that does not negotiate keeps the synchronous answer.
import { afterAll, describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { postStateless, type StatelessAnswer } from "../helpers/stateless-post.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { waits } from "../helpers/protocol-tools.js";
import { leasesLapse } from "../helpers/host-crash.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";
import { waitFor } from "../../shared/wait-for.js";

const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} }, elicitation: {} };

const slowUpper: ServedTool = {
  definition: { name: "slow_upper", description: "Upper-cases text after 300 ms.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: async (args) => {
    await new Promise((r) => setTimeout(r, 300));
    return { ok: true, data: String(args.text).toUpperCase() };
  },
};
const confirm: ServedTool = {
  definition: { name: "confirm", description: "Asks, then answers.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ", execution: { taskSupport: "optional" } },
  handler: async (_a, ctx) => {
    const r = (await ctx.elicit({ message: "Sure?", requestedSchema: { type: "object", properties: {} } }, "sure")) as { action: string };
    return { ok: true, data: `answer: ${r.action}` };
  },
};
const only: ServedTool = {
  definition: { name: "only_as_task", description: "Runs only as a task.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ", execution: { taskSupport: "required" } },
  handler: () => ({ ok: true, data: "ran" }),
};

// Its first run hangs (as if the host died mid-task); any later run answers: only a resumed task can complete.
let hangOnceRuns = 0;
const hangOnce: ServedTool = {
  definition: { name: "hang_once", description: "Hangs the first time.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: (args, ctx) =>
    hangOnceRuns++ === 0
      ? new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ ok: false, error: "aborted" }), { once: true }))
      : { ok: true, data: `resumed ${String(args.text)}` },
};

const hosts: ProtocolHost[] = [];
const start = async (sql?: ProtocolHost["sql"]) => {
  const h = await startProtocolHost({}, [slowUpper, confirm, only, hangOnce], sql);
  hosts.push(h);
  return h;
};
afterAll(async () => Promise.allSettled(hosts.map((h) => h.close())));

const rpc = (h: ProtocolHost, method: string, params: Record<string, unknown>, caps: Record<string, unknown> = TASKS): Promise<StatelessAnswer> =>
  postStateless(h.http.url, method, params, { caps });

/** Polls tasks/get until the task's status is one `done` accepts; that task. */
const until = (h: ProtocolHost, taskId: string, done: (status: string) => boolean): Promise<Record<string, unknown>> =>
  waitFor(`task ${taskId} to get there`, async () => {
    const t = (await rpc(h, "tasks/get", { taskId })).body.result!;
    return done(t.status as string) && t;
  }, 10_000);

describe("motebit_task as an MCP task", () => {
  it("a negotiating client gets a handle at once, polls, and finds the signed receipt; tools/list says it may be a task", async () => {
    const h = await start();
    const listed = (await rpc(h, "tools/list", {})).body.result!.tools as { name: string; execution?: unknown }[];
    expect(listed.find((t) => t.name === "motebit_task")!.execution).toEqual({ taskSupport: "optional" });
    const created = (await rpc(h, "tools/call", { name: "motebit_task", arguments: { prompt: "as a task", required_capabilities: ["slow_upper"] } })).body.result!;
    expect(created).toMatchObject({ resultType: "task", status: "working", ttlMs: 3_600_000, pollIntervalMs: 500 });
    expect(created).not.toHaveProperty("requestState");
    expect(new Date(created.createdAt as string).toISOString()).toBe(created.createdAt);
    const done = await until(h, created.taskId as string, (s) => s !== "working");
    expect(done.status).toBe("completed");
    const receipt = receiptOfResult(done.result);
    expect(receipt).toMatchObject({ status: "completed", result: "AS A TASK", motebit_id: h.motebit.motebitId });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });

  it("a client that does not negotiate tasks gets today's synchronous receipt; task methods need the extension (-32021)", async () => {
    const h = await start();
    const sync = (await rpc(h, "tools/call", { name: "motebit_task", arguments: { prompt: "now", required_capabilities: ["slow_upper"] } }, {})).body.result!;
    expect(sync.resultType).toBe("complete");
    expect(receiptOfResult(sync)).toMatchObject({ status: "completed", result: "NOW" });
    const get = await rpc(h, "tasks/get", { taskId: "x" }, {});
    expect([get.status, get.body.error?.code]).toEqual([400, -32021]);
    const required = await rpc(h, "tools/call", { name: "only_as_task", arguments: {} }, {});
    expect([required.status, required.body.error?.code, required.body.error?.data]).toEqual([
      400,
      -32021,
      { requiredCapabilities: { extensions: { "io.modelcontextprotocol/tasks": {} } } },
    ]);
  });

  it("tasks/cancel ends the task as cancelled and the ledger holds a signed failed receipt", async () => {
    const h = await start();
    const before = h.motebit.ledger.count();
    const label = `cancel-${Date.now()}`;
    const created = (await rpc(h, "tools/call", { name: "motebit_task", arguments: { prompt: label, required_capabilities: ["wait"] } })).body.result!;
    for (let i = 0; i < 100 && !waits.started.includes(label); i++) await new Promise((r) => setTimeout(r, 20));
    expect(waits.started).toContain(label);
    expect((await rpc(h, "tasks/cancel", { taskId: created.taskId })).body.result).toMatchObject({ resultType: "complete" });
    const t = await until(h, created.taskId as string, (s) => s === "cancelled");
    expect(t).not.toHaveProperty("result");
    for (let i = 0; i < 100 && h.motebit.ledger.count() === before; i++) await new Promise((r) => setTimeout(r, 20));
    const [stored] = h.motebit.ledger.list({ limit: 1 });
    expect(stored.receipt).toMatchObject({ status: "failed", result: "Error: task cancelled" });
    expect((await verifyReceipt(stored.receipt)).valid).toBe(true);
    // Another caller's view: unknown. A second cancel is the same empty ack.
    expect((await rpc(h, "tasks/cancel", { taskId: created.taskId })).body.result).toMatchObject({ resultType: "complete" });
    expect((await rpc(h, "tasks/get", { taskId: "not-a-task" })).body.error?.code).toBe(-32602);
  });

  it("a task waiting for input survives a restart and completes after tasks/update", async () => {
    const first = await start();
    const created = (await rpc(first, "tools/call", { name: "confirm", arguments: {} })).body.result!;
    const waiting = await until(first, created.taskId as string, (s) => s === "input_required");
    expect(Object.keys(waiting.inputRequests as object)).toEqual(["sure"]);
    await first.close();

    const second = await start(first.sql);
    const still = (await rpc(second, "tasks/get", { taskId: created.taskId })).body.result!;
    expect(still.status).toBe("input_required");
    expect((await rpc(second, "tasks/update", { taskId: created.taskId, inputResponses: { sure: { action: "accept", content: {} } } })).body.result).toMatchObject({
      resultType: "complete",
    });
    const done = await until(second, created.taskId as string, (s) => s === "completed");
    expect(((done.result as { content: { text: string }[] }).content[0].text)).toMatch(/^answer: accept\n\[motebit:/);
  });

  it("a task that was running when the host stopped runs again after the restart and ends in a receipt", async () => {
    const first = await start();
    const created = (await rpc(first, "tools/call", { name: "motebit_task", arguments: { prompt: "work", required_capabilities: ["hang_once"] } })).body.result!;
    for (let i = 0; i < 100 && hangOnceRuns === 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(hangOnceRuns).toBe(1);
    await first.close();
    // The host died with the task running: its run's lease lapses, and only then does another host take the task.
    leasesLapse(first.sql);
    const second = await start(first.sql);
    const done = await until(second, created.taskId as string, (s) => s === "completed");
    expect(hangOnceRuns).toBe(2);
    const receipt = receiptOfResult(done.result);
    expect(receipt).toMatchObject({ status: "completed", result: "resumed work" });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });
});
