import { describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { task } from "./task-fixture.js";

const tool = (name: string, handler: ServedTool["handler"], inputSchema: Record<string, unknown> = { type: "object", properties: { q: { type: "string" } }, required: ["q"] }): ServedTool => ({
  definition: { name, description: "d", inputSchema, risk: "R0_READ" },
  handler,
});

describe("a task that fails is still signed", () => {
  it("when no tool is served", async () => {
    const r = await task({ tools: [] });
    expect(r).toMatchObject({ status: "failed", result: "Error: no served tool can run this task", tools_used: [] });
    expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
  });

  it("when the tool has no string parameter for the prompt", async () => {
    const r = await task({ tools: [tool("calc", () => ({ ok: true, data: 1 }), { type: "object", properties: { n: { type: "number" } }, required: ["n"] })] });
    expect(r).toMatchObject({ status: "failed", result: 'Error: tool "calc" has no required string parameter to take the prompt', tools_used: [] });
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("when the mapped arguments do not satisfy the schema", async () => {
    const schema = { type: "object", properties: { q: { type: "string", enum: ["a", "b"] } }, required: ["q"] };
    const r = await task({ prompt: "c", tools: [tool("pick", () => ({ ok: true, data: 1 }), schema)] });
    expect(r).toMatchObject({ status: "failed", result: 'Error: Invalid arguments for tool "pick": "q" must be one of "a", "b"', tools_used: [] });
  });

  it("when the tool throws", async () => {
    const r = await task({ tools: [tool("boom", () => { throw new Error("kaput"); })] });
    expect(r).toMatchObject({ status: "failed", result: "Error: kaput", tools_used: ["boom"] });
    expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
  });

  it("when the tool reports a failure", async () => {
    const r = await task({ tools: [tool("nope", () => ({ ok: false, error: "upstream 503" }))] });
    expect(r).toMatchObject({ status: "failed", result: "Error: upstream 503", tools_used: ["nope"] });
  });

  it("when the gate itself throws", async () => {
    const r = await task({ gate: () => { throw new Error("policy store unavailable"); } });
    expect(r).toMatchObject({ status: "failed", result: "Error: policy store unavailable", tools_used: [] });
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("when the caller cancels the task", async () => {
    const c = new AbortController();
    setTimeout(() => c.abort(), 20);
    const r = await task({ prompt: "5000", requiredCapabilities: ["slow"], signal: c.signal });
    expect(r).toMatchObject({ status: "failed", result: "Error: task cancelled", tools_used: ["slow"] });
  });

  it("refuses a nonsensical timeout before doing anything", async () => {
    await expect(task({ timeoutMs: 0 })).rejects.toThrow(RangeError);
    await expect(task({ timeoutMs: Number.NaN })).rejects.toThrow(/timeoutMs must be a positive number/);
  });
});
