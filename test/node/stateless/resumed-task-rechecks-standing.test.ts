// Trust is checked when work runs, not only when it was accepted: a known caller starts 2026-07-28 tasks, the host
// dies mid-task, the caller is set to `blocked`, the host starts again on the same database. The caller's own
// requests are refused, and its resumed tasks run nothing: each ends in a signed `failed` receipt saying why.
// A task the host keeps dying under is started at most MAX_TASK_ATTEMPTS times; the next start signs a receipt
// saying the cap ended it. Over real HTTP on motebit-local's host; each "restart" is a new host on the same SQLite.
import { afterAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, verifyReceipt } from "../../../src/protocol/index.js";
import { MAX_TASK_ATTEMPTS } from "../../../src/mcp/engine/limits.js";
import { McpTaskStore } from "../../../src/mcp/engine/mcp-task-store.js";
import { systemClock } from "../../../src/ports.js";
import type { ServedTool } from "../../../src/tools/types.js";
import keys from "../../fixtures/edge/keys.json";
import { memorySql } from "../helpers/sqlite.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { leasesLapse } from "../helpers/host-crash.js";
import { postStateless, TASKS } from "../helpers/stateless-post.js";
import { receiptOfTask } from "../helpers/task-rows.js";

const CALLER = keys.known_caller.sovereign_motebit_id;
const knownAs = (trust: string) => ({ MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [CALLER]: { public_key: keys.known_caller.public_key_hex, trust } }) });

// Runs until its signal aborts: a host that "dies" mid-task leaves the row working.
let started = 0;
const stuck: ServedTool = {
  definition: { name: "stuck", description: "Never finishes on its own.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: (_a, ctx) => (started++, new Promise((resolve) => ctx.signal.addEventListener("abort", () => resolve({ ok: false, error: "aborted" }), { once: true }))),
};

const hosts: ProtocolHost[] = [];
const start = async (env: Record<string, string>, sql: ProtocolHost["sql"]) => {
  const h = await startProtocolHost(env, [stuck], sql);
  hosts.push(h);
  return h;
};
/** The host on `sql` died (its runs' leases lapse) and a new one starts on the same database. */
const restart = (env: Record<string, string>, sql: ProtocolHost["sql"]) => (leasesLapse(sql), start(env, sql));
afterAll(async () => Promise.allSettled(hosts.map((h) => h.close())));

async function signedCall(h: ProtocolHost, method: string, params: Record<string, unknown>) {
  const signer = await createSigner(keys.known_caller.seed_hex);
  const token = await mintBearerToken({ mid: CALLER, did: "caller-device", aud: "mcp:call", sub: h.motebit.motebitId }, signer);
  return postStateless(h.http.url, method, params, { auth: `Bearer motebit:${token}`, caps: TASKS });
}

async function startStuckTask(h: ProtocolHost, prompt: string): Promise<string> {
  const before = started;
  const created = await signedCall(h, "tools/call", { name: "motebit_task", arguments: { prompt, required_capabilities: ["stuck"] } });
  expect(created.body.result?.resultType, JSON.stringify(created.body)).toBe("task");
  for (let i = 0; i < 200 && started === before; i++) await new Promise((r) => setTimeout(r, 10));
  return created.body.result!.taskId as string;
}

describe("a resumed task re-checks its caller's standing", () => {
  it("a caller blocked while the host was down: both resumed tasks end in signed failed receipts, nothing runs", async () => {
    const sql = memorySql();
    const first = await start(knownAs("verified"), sql);
    const a = await startStuckTask(first, "task one");
    const b = await startStuckTask(first, "task two");
    const runsBefore = started;
    // The "restart": a new host on the same database, with the caller now blocked.
    const again = await restart(knownAs("blocked"), sql);
    const refused = await signedCall(again, "tools/call", { name: "echo", arguments: { text: "hi" } });
    expect(refused.status).toBe(401);
    for (const id of [a, b]) {
      const r = await receiptOfTask(sql, id);
      expect(r.status).toBe("failed");
      expect(r.result).toBe("Error: not run: the caller lost its standing (caller is blocked)");
      expect(r.tools_used).toEqual([]);
      expect((await verifyReceipt(r)).valid).toBe(true);
      expect(again.motebit.ledger.get(r.task_id)?.receipt.status).toBe("failed");
    }
    expect(started).toBe(runsBefore);
  });

  it("a caller no longer pinned at all loses its standing the same way", async () => {
    const sql = memorySql();
    const first = await start(knownAs("verified"), sql);
    const a = await startStuckTask(first, "task three");
    await restart({}, sql);
    expect((await receiptOfTask(sql, a)).result).toBe("Error: not run: the caller lost its standing (caller is no longer a known caller)");
  });

  it(`a task whose host dies under it each time is started at most ${MAX_TASK_ATTEMPTS} times; the next start signs why it stopped`, async () => {
    const sql = memorySql();
    const first = await start(knownAs("verified"), sql);
    const id = await startStuckTask(first, "task four");
    const runs = started;
    const store = new McpTaskStore(sql, systemClock);
    for (let attempt = 2; attempt <= MAX_TASK_ATTEMPTS; attempt++) {
      await restart(knownAs("verified"), sql);
      for (let i = 0; i < 200 && started < runs + attempt - 1; i++) await new Promise((r) => setTimeout(r, 10));
      expect(store.get(id)?.attempts).toBe(attempt);
      expect(store.get(id)?.status).toBe("working");
    }
    expect(started).toBe(runs + MAX_TASK_ATTEMPTS - 1);
    await restart(knownAs("verified"), sql);
    const r = await receiptOfTask(sql, id);
    expect(r.status).toBe("failed");
    expect(r.result).toBe(`Error: not run: the task was started ${MAX_TASK_ATTEMPTS} times and its host stopped during each; it is not run again`);
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect(started).toBe(runs + MAX_TASK_ATTEMPTS - 1);
  });
});
