import { describe, expect, it } from "vitest";
import { peer } from "../helpers/motebit.js";
import { DEFAULT_DENY_REASON, firstContactMessage } from "../../../src/policy/admission/refusals.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import exampleTools from "../../../examples/tools/index.js";
import { aiMotebit, aiTask, toolResultsSeen } from "./ai-fixture.js";

describe("a refused call never runs, and the model hears why", () => {
  // pay is R4_MONEY: above the service preset's deny band, so the gate refuses it for everyone.
  let paid = 0;
  const pay: ServedTool = {
    definition: { name: "pay", description: "Pays.", inputSchema: { type: "object", properties: { cents: { type: "integer" } } }, risk: "R4_MONEY" },
    handler: () => (paid++, { ok: true, data: "paid" }),
  };
  const tools = [...exampleTools, pay];

  it("a call the gate refuses goes back with the exact refusal text; no tool ran, so the receipt says denied", async () => {
    const { h, llm } = await aiMotebit([{ tools: [{ name: "pay", input: { cents: 100 } }] }, "I may not pay."], { tools });
    const r = await aiTask(h, peer(), { prompt: "pay 1 dollar" });
    expect(paid).toBe(0);
    expect(r.status).toBe("denied");
    expect(r.tools_used).toEqual([]);
    expect(r.result).toBe("I may not pay.");
    expect((await verifyReceipt(r)).valid).toBe(true);
    // Never offered, yet refused in the gate's own words when called.
    expect((llm.seen[0].tools ?? []).map((t) => t.name)).not.toContain("pay");
    const [seen] = toolResultsSeen(llm, 1);
    expect(seen.output).toEqual({ type: "error-text", value: `Policy denied: ${DEFAULT_DENY_REASON}` });
    const turn = h.m.audit.list().find((e) => e.tool.startsWith("model:"));
    expect(turn?.turn?.denials).toBe(1);
    expect(h.m.audit.list().find((e) => e.tool === "pay")?.outcome).toBe("denied");
  });

  it("a first-contact peer's query is refused for its trust", async () => {
    const { h, llm } = await aiMotebit([{ tools: [{ name: "slow", input: { ms: 1 } }] }, "needs approval"]);
    // first_contact peers may run R0 only; motebit_query is R2, so a trusted peer asks and slow is still gated per call.
    const out = await h.call(peer("first_contact"), "motebit_query", { message: "wait" });
    expect(out.content[0].text).toContain(firstContactMessage("motebit_query"));
    const r = await aiTask(h, peer("verified"), { prompt: "x" });
    expect(r.status).toBe("completed");
    expect(llm.calls).toBe(2);
  });

  it("a refusal beside a tool that ran is completed, and only the tool that ran is listed", async () => {
    const { h } = await aiMotebit([
      { tools: [{ name: "pay", input: { cents: 1 } }, { name: "echo", input: { text: "hi" } }] },
      "echo ran; pay is refused",
    ], { tools });
    const r = await aiTask(h, peer(), { prompt: "both" });
    expect(r.status).toBe("completed");
    expect(r.tools_used).toEqual(["echo"]);
    expect(paid).toBe(0);
  });

  it("a tool this caller cannot see (localOnly over HTTP, a motebit_* tool) is refused and counted, never run", async () => {
    const { h, llm } = await aiMotebit([
      { tools: [{ name: "read_note", input: { path: "diary" } }, { name: "motebit_recall", input: { query: "x" } }] },
      "cannot",
    ]);
    const r = await aiTask(h, peer(), { prompt: "read my diary" });
    expect(r.status).toBe("denied");
    expect(r.tools_used).toEqual([]);
    const outputs = toolResultsSeen(llm, 1).map((s) => s.output);
    expect(outputs.every((o) => o.type === "error-text")).toBe(true);
    expect(JSON.stringify(outputs)).not.toMatch(/no note was read/);
    expect(h.m.audit.list().find((e) => e.tool.startsWith("model:"))?.turn?.denials).toBe(2);
  });

  it("a delegation scope limits which tools may run", async () => {
    const { h, llm } = await aiMotebit([{ tools: [{ name: "word_count", input: { text: "a b" } }] }, "out of scope"]);
    // The scope check is the gate's: exercised directly through the turn's gate with a scope that excludes word_count.
    const { aiTurnTools } = await import("../../../src/agent/turn-context.js");
    const { runAiTask } = await import("../../../src/agent/ai-task.js");
    const t = aiTurnTools(h.m, peer(), "echo");
    const r = await runAiTask({
      prompt: "count",
      llm: h.m.llm!,
      system: "test",
      tools: t.tools,
      offered: t.offered,
      gate: t.gate,
      onToolCall: t.onToolCall,
      onTurn: t.recordTurn,
      log: t.log,
      signer: h.m.signer,
      motebitId: h.m.motebitId,
      deviceId: h.m.deviceId,
      delegatedScope: "echo",
      timeoutMs: 5_000,
      clock: h.m.clock,
    });
    expect(r.status).toBe("denied");
    expect(r.delegated_scope).toBe("echo");
    expect(toolResultsSeen(llm, 1)[0].output).toEqual({
      type: "error-text",
      value: 'Policy denied: tool "word_count" is outside the delegated scope "echo"',
    });
    expect((llm.seen[0].tools ?? []).map((x) => x.name)).toEqual(["echo"]);
  });
});
