// AI mode keeps a task run's outcome before signing, as direct mode does (issue 30): a host killed while it signs
// resumes the task with that outcome, signs it, and neither the model nor any tool runs again. The turn's audit rows
// are written with the kept outcome, so the receipt's tools_used still matches what the audit log shows ran.
import { describe, expect, it } from "vitest";
import { peer } from "../helpers/motebit.js";
import { stripIdentityTag, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { newSessionState } from "../../../src/mcp/session.js";
import type { Outcome } from "../../../src/agent/task-receipt.js";
import type { RunRecord } from "../../../src/agent/task.js";
import { aiMotebit } from "./ai-fixture.js";

describe("AI mode: a task killed while signing", () => {
  it("signs the kept outcome on resume; the model and the tools run once", async () => {
    const { h, llm } = await aiMotebit([{ tools: [{ name: "echo", input: { text: "one" } }] }, "echoed one"]);
    const caller = peer();
    const run = async (runRecord: RunRecord): Promise<ExecutionReceipt> => {
      const call = { statelessVersion: "2026-07-28", runRecord };
      const message = { jsonrpc: "2.0" as const, id: 1, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "echo one" } } };
      const res = (await h.m.handleClassified({ kind: "request", message }, { principal: caller, session: newSessionState(), call })) as { result: { content: { text: string }[] } };
      return JSON.parse(stripIdentityTag(res.result.content[0].text)) as ExecutionReceipt;
    };

    // The first run: its outcome is kept, then the host dies before the receipt commits (the held write is dropped).
    let kept: Outcome | null = null;
    await run({ id: "task-1", commitWithEnd: () => {}, kept: null, keep: (o) => (kept = o) });
    expect(kept).toEqual({ status: "completed", result: "echoed one", toolsUsed: ["echo"], memoriesFormed: 0 });
    const modelCalls = llm.seen.length;
    const echoes = () => h.m.audit.list().filter((e) => e.tool === "echo" && e.outcome === "allowed").length;
    expect(echoes()).toBe(1);
    expect(h.m.ledger.forRun("task-1")).toBeUndefined();

    // The resumed run signs what was kept.
    const writes: (() => void)[] = [];
    const receipt = await run({ id: "task-1", commitWithEnd: (w) => void writes.push(w), kept, keep: () => expect.unreachable("a kept outcome is not kept again") });
    writes.forEach((w) => w());
    expect(receipt).toMatchObject({ status: "completed", result: "echoed one", tools_used: ["echo"] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    expect(llm.seen.length).toBe(modelCalls);
    expect(echoes()).toBe(1);
    expect(h.m.ledger.forRun("task-1")?.receipt).toEqual(receipt);
  });
});
