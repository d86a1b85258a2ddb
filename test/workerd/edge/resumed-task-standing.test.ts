// At the edge, a task row outlives its object; when the object starts again under settings that now block the
// caller, the resumed motebit_task runs nothing and ends in a signed `failed` receipt saying why.
// Two MotebitObjects over one object's storage: the first accepts the task and is left running (as if it died),
// the second starts with MOTEBIT_KNOWN_CALLERS marking the caller blocked and resumes the row.
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { MotebitObject } from "../../../worker/index.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { TASKS } from "../../shared/stateless-request.js";
import { keys, receiptOfTaskRow, statelessCall } from "./helpers.js";

const CALLER = keys.known_caller.sovereign_motebit_id;
const PRINCIPAL = { kind: "peer", callerId: CALLER, via: "signed_token", trust: "verified" } as const;
const knownAs = (trust: string) => JSON.stringify({ [CALLER]: { public_key: keys.known_caller.public_key_hex, trust } });

it("a caller blocked before its task resumed gets a signed failed receipt and the tool does not run again", async () => {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName("resumed-task-standing"));
  await runInDurableObject(stub, async (_live, state) => {
    const first = new MotebitObject(state, env as unknown as EdgeEnv);
    const res = await first.handleMcp(statelessCall(PRINCIPAL, "tools/call", { name: "motebit_task", arguments: { prompt: "60000", required_capabilities: ["slow"] } }, TASKS));
    const created = ((await res.json()) as { result: { resultType: string; taskId: string } }).result;
    expect(created.resultType).toBe("task");

    const again = new MotebitObject(state, { ...env, MOTEBIT_KNOWN_CALLERS: knownAs("blocked") } as unknown as EdgeEnv);
    await again.identity();
    const receipt = await receiptOfTaskRow(state.storage.sql, created.taskId);
    expect(receipt).toMatchObject({ status: "failed", result: "Error: not run: the caller lost its standing (caller is blocked)", tools_used: [] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });
});
