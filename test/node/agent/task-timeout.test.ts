import { describe, expect, it } from "vitest";
import exampleTools from "../../../examples/tools/index.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool, ToolResult } from "../../../src/tools/types.js";
import { task } from "./task-fixture.js";

const exampleSlow = exampleTools.find((t) => t.definition.name === "slow")!;

describe("a task that outlives its timeout", () => {
  it("aborts the tool, stops waiting, and signs a failed receipt with the exact text", async () => {
    let observedAbort = false;
    let handlerSettled: Promise<ToolResult> | undefined;
    // The example slow tool, watched: did it see the abort, and did it stop rather than finish its wait?
    const watched: ServedTool = {
      definition: exampleSlow.definition,
      handler: (args, ctx) => {
        ctx.signal.addEventListener("abort", () => (observedAbort = true));
        handlerSettled = Promise.resolve(exampleSlow.handler(args, ctx));
        return handlerSettled;
      },
    };
    const started = performance.now();
    const r = await task({ prompt: "10000", tools: [watched], timeoutMs: 150 });
    const elapsed = performance.now() - started;

    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: task timed out after 150ms");
    expect(r.tools_used).toEqual(["slow"]);
    expect(elapsed).toBeGreaterThanOrEqual(140);
    expect(elapsed).toBeLessThan(1_500);
    expect(observedAbort).toBe(true);
    expect(await handlerSettled).toEqual({ ok: false, error: "aborted" });
    expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
  });

  it("stops waiting even for a tool that ignores the abort", async () => {
    const deaf: ServedTool = {
      definition: { name: "deaf", description: "never finishes", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, risk: 0 },
      handler: () => new Promise(() => {}),
    };
    const started = performance.now();
    const r = await task({ tools: [deaf], timeoutMs: 100 });
    expect(performance.now() - started).toBeLessThan(1_500);
    expect(r).toMatchObject({ status: "failed", result: "Error: task timed out after 100ms", tools_used: ["deaf"] });
  });

  it("a tool that finishes in time completes normally", async () => {
    const r = await task({ prompt: "5", requiredCapabilities: ["slow"], timeoutMs: 2_000 });
    expect(r).toMatchObject({ status: "completed", result: "waited 5ms", tools_used: ["slow"] });
  });
});
