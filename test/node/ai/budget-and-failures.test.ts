import { describe, expect, it } from "vitest";
import { owner, peer } from "../helpers/motebit.js";
import { verifyReceipt, stripIdentityTag } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import exampleTools from "../../../examples/tools/index.js";
import { aiMotebit, aiTask } from "./ai-fixture.js";

describe("one wall-clock budget covers every model and tool call", () => {
  it("a model that never answers is aborted: failed, 'task timed out after <ms>ms', signed", async () => {
    const { h } = await aiMotebit([{ hang: true }], { taskTimeoutMs: 150 });
    const t0 = Date.now();
    const r = await aiTask(h, peer(), { prompt: "think forever" });
    expect(Date.now() - t0).toBeLessThan(5_000);
    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: task timed out after 150ms");
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("a tool in flight when the budget runs out is aborted, and the receipt lists it", async () => {
    let aborted = false;
    const stuck: ServedTool = {
      definition: { name: "stuck", description: "Never finishes unless aborted.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ" },
      handler: (_a, { signal }) =>
        new Promise((resolve) => signal.addEventListener("abort", () => ((aborted = true), resolve({ ok: false, error: "aborted" })), { once: true })),
    };
    const { h } = await aiMotebit([{ tools: [{ name: "echo", input: { text: "first" } }] }, { tools: [{ name: "stuck", input: {} }] }, "never reached"], {
      taskTimeoutMs: 300,
      tools: [...exampleTools, stuck],
    });
    const r = await aiTask(h, owner, { prompt: "x" });
    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: task timed out after 300ms");
    expect(r.tools_used).toEqual(["echo", "stuck"]);
    expect(aborted).toBe(true);
  });

  it("a provider error is a signed failure naming the error", async () => {
    const { h } = await aiMotebit([{ error: "overloaded" }]);
    const r = await aiTask(h, peer(), { prompt: "x" });
    expect(r.status).toBe("failed");
    expect(r.result).toMatch(/^Error: .*overloaded/);
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("motebit_query shares the budget and says the same words", async () => {
    const { h } = await aiMotebit([{ hang: true }], { taskTimeoutMs: 120 });
    const r = await h.call(owner, "motebit_query", { message: "x" });
    expect(r.isError).toBe(true);
    expect(stripIdentityTag(r.content[0].text)).toBe("Error: task timed out after 120ms");
  });

  it("AI mode's default budget is 120000 ms; direct mode keeps 60000", async () => {
    const { h } = await aiMotebit(["ok"]);
    expect(h.m.taskTimeoutMs).toBe(120_000);
    const { makeMotebit } = await import("../helpers/motebit.js");
    expect((await makeMotebit()).m.taskTimeoutMs).toBe(60_000);
  });
});
