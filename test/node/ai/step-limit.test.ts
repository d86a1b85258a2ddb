import { describe, expect, it } from "vitest";
import { owner, peer } from "../helpers/motebit.js";
import { MAX_TOOL_STEPS, STEP_LIMIT_ERROR } from "../../../src/agent/ai-loop.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { aiMotebit, aiTask } from "./ai-fixture.js";

const echoForever = { tools: [{ name: "echo", input: { text: "again" } }] };

describe("the loop is bounded: 10 tool steps, then one request with tools off", () => {
  it("no text after the 10th tool step: failed with the step-limit error, every tool that ran listed", async () => {
    const { h, llm } = await aiMotebit([echoForever]);
    const r = await aiTask(h, peer(), { prompt: "loop forever" });
    expect(r.status).toBe("failed");
    expect(r.result).toBe(STEP_LIMIT_ERROR);
    expect(r.result).toBe("Error: tool step limit (10) reached");
    expect(r.tools_used).toEqual(Array(MAX_TOOL_STEPS).fill("echo"));
    expect((await verifyReceipt(r)).valid).toBe(true);
    // 10 tool-calling responses, then the one with tools switched off (its tool call ran nothing).
    expect(llm.calls).toBe(MAX_TOOL_STEPS + 1);
    expect(llm.seen[MAX_TOOL_STEPS].tools ?? []).toEqual([]);
    expect(llm.seen[MAX_TOOL_STEPS - 1].tools?.length).toBeGreaterThan(0);
  });

  it("text when asked without tools: completed with that text", async () => {
    const { h, llm } = await aiMotebit([...Array(MAX_TOOL_STEPS).fill(echoForever), "Here is what I found."]);
    const r = await aiTask(h, owner, { prompt: "loop" });
    expect(r.status).toBe("completed");
    expect(r.result).toBe("Here is what I found.");
    expect(r.tools_used).toHaveLength(MAX_TOOL_STEPS);
    expect(llm.calls).toBe(MAX_TOOL_STEPS + 1);
  });

  it("nine tool steps and an answer need no extra request", async () => {
    const { h, llm } = await aiMotebit([...Array(MAX_TOOL_STEPS - 1).fill(echoForever), "done"]);
    const r = await aiTask(h, owner, { prompt: "loop" });
    expect(r.status).toBe("completed");
    expect(llm.calls).toBe(MAX_TOOL_STEPS);
  });

  it("motebit_query stops at the same limit with the same error", async () => {
    const { h } = await aiMotebit([echoForever]);
    const r = await h.call(owner, "motebit_query", { message: "loop" });
    expect(r.isError).toBe(true);
    expect(stripIdentityTag(r.content[0].text)).toBe(STEP_LIMIT_ERROR);
  });
});
