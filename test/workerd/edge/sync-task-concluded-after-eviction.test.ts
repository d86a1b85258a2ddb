// At the edge, a synchronous motebit_task (no tasks extension) is kept in the object's SQLite from its admission
// (issue 42 item 9). The object evicted or redeployed under it: the next object, started by its next request,
// signs exactly one receipt for the call (the outcome its tool step kept, else a failed "interrupted" one) and
// runs nothing again. Two MotebitObjects over one object's storage: the first is left running (as if it died).
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { MotebitObject } from "../../../worker/index.js";
import { INTERRUPTED } from "../../../src/agent/task.js";
import { verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { keys, statelessCall } from "./helpers.js";

const CALLER = keys.known_caller.sovereign_motebit_id;
const PRINCIPAL = { kind: "peer", callerId: CALLER, via: "signed_token", trust: "verified" } as const;
const BLOCKED = JSON.stringify({ [CALLER]: { public_key: keys.known_caller.public_key_hex, trust: "blocked" } });

const cases = [
  { name: "signs an interrupted failure", kept: false, blocked: false },
  { name: "signs the kept outcome", kept: true, blocked: false },
  // What was admitted is concluded whatever the settings refuse now: the receipt is owed, and nothing runs.
  { name: "signs an interrupted failure though the caller is blocked now", kept: false, blocked: true },
];

for (const { name, kept, blocked } of cases) {
  it(`an object gone during a synchronous call: the next one ${name}, once`, async () => {
    const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName(`sync-task-eviction-${kept}-${blocked}`));
    await runInDurableObject(stub, async (_live, state) => {
      const first = new MotebitObject(state, env as unknown as EdgeEnv);
      await first.identity();
      // Answered only when the task ends (60 s): this object is the one that "dies" with the call running.
      void first.handleMcp(statelessCall(PRINCIPAL, "tools/call", { name: "motebit_task", arguments: { prompt: "60000", required_capabilities: ["slow"] } })).catch(() => {});
      const sql = state.storage.sql;
      let runId: string | undefined;
      for (let i = 0; i < 200 && runId === undefined; i++) {
        runId = sql.exec<{ task_id: string }>("SELECT task_id FROM mcp_tasks WHERE admission IS NOT NULL").toArray()[0]?.task_id;
        if (runId === undefined) await new Promise((r) => setTimeout(r, 10));
      }
      expect(runId).toBeDefined();
      if (kept) sql.exec("UPDATE mcp_tasks SET outcome = ? WHERE task_id = ?", JSON.stringify({ status: "completed", result: "waited 60000ms", toolsUsed: ["slow"] }), runId!);

      // The next object (after an eviction or a redeploy): its first request starts the motebit, which concludes the call.
      const next = new MotebitObject(state, (blocked ? { ...env, MOTEBIT_KNOWN_CALLERS: BLOCKED } : env) as unknown as EdgeEnv);
      await next.identity();
      const receipts = () => sql.exec<{ json: string }>("SELECT json FROM receipts WHERE run_id = ?", runId!).toArray();
      for (let i = 0; i < 200 && receipts().length === 0; i++) await new Promise((r) => setTimeout(r, 10));
      await new Promise((r) => setTimeout(r, 200));
      expect(receipts()).toHaveLength(1);
      const receipt = JSON.parse(receipts()[0].json) as ExecutionReceipt;
      expect(receipt).toMatchObject(kept ? { status: "completed", result: "waited 60000ms", tools_used: ["slow"] } : { status: "failed", result: INTERRUPTED, tools_used: [] });
      expect((await verifyReceipt(receipt)).valid).toBe(true);
      expect(sql.exec("SELECT 1 FROM mcp_tasks WHERE admission IS NOT NULL").toArray()).toEqual([]);
    });
  });
}
