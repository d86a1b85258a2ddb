import { describe, expect, it } from "vitest";
import { mapPromptToArgs, selectDirectTool } from "../../../src/tools/direct-mode.js";
import type { ServedTool } from "../../../src/tools/types.js";

const tool = (name: string, inputSchema: Record<string, unknown> = { type: "object" }): ServedTool => ({
  definition: { name, description: "d", inputSchema, risk: 0 },
  handler: () => ({ ok: true, data: name }),
});
const served = [tool("first"), tool("second"), tool("third")];

describe("selectDirectTool", () => {
  const picked = (caps?: string[]) => {
    const r = selectDirectTool(served, caps);
    return "tool" in r ? r.tool.definition.name : r.error;
  };
  it("runs the tool the first required capability names, when every one is served", () => {
    expect(picked(["second"])).toBe("second");
    expect(picked(["third", "second"])).toBe("third");
  });
  it("runs the first served tool when no capability is named", () => {
    expect(picked()).toBe("first");
    expect(picked([])).toBe("first");
  });
  it("a capability no served tool provides is an error naming it, never a fallback", () => {
    expect(picked(["not_served"])).toBe('no served tool provides "not_served"');
    expect(picked(["second", "SECOND"])).toBe('no served tool provides "SECOND"');
    for (const cap of ["__proto__", "constructor", "FIRST", "../first", "*", "first ", ""]) {
      expect(picked([cap])).toBe(`no served tool provides ${JSON.stringify(cap)}`);
    }
  });
  it("echoes at most a bounded prefix of the capability", () => {
    expect(picked(["x".repeat(10_000)])).toBe(`no served tool provides "${"x".repeat(100)}…"`);
  });
  it("says so when nothing is served", () => {
    expect(selectDirectTool([])).toEqual({ error: "no served tool can run this task" });
    expect(selectDirectTool([], ["x"])).toEqual({ error: 'no served tool provides "x"' });
  });
});

describe("mapPromptToArgs", () => {
  it("fills the first required string property, in required order", () => {
    const t = tool("t", {
      type: "object",
      properties: { count: { type: "integer" }, body: { type: "string" }, title: { type: "string" }, note: { type: "string" } },
      required: ["count", "title", "body"],
    });
    expect(mapPromptToArgs(t, "hello")).toEqual({ args: { title: "hello" } });
  });

  it("accepts a type list that includes string", () => {
    const t = tool("t", { type: "object", properties: { q: { type: ["null", "string"] } }, required: ["q"] });
    expect(mapPromptToArgs(t, "p")).toEqual({ args: { q: "p" } });
  });

  it("keeps a parameter named error distinct from a mapping error", () => {
    const t = tool("t", { type: "object", properties: { error: { type: "string" } }, required: ["error"] });
    expect(mapPromptToArgs(t, "p")).toEqual({ args: { error: "p" } });
  });

  it.each<[string, Record<string, unknown>]>([
    ["no properties", { type: "object" }],
    ["optional strings only", { type: "object", properties: { s: { type: "string" } } }],
    ["required non-strings only", { type: "object", properties: { n: { type: "number" } }, required: ["n"] }],
    ["a required name with no schema", { type: "object", properties: {}, required: ["s"] }],
  ])("errors when the tool has %s", (_, schema) => {
    expect(mapPromptToArgs(tool("calc", schema), "p")).toEqual({ error: 'tool "calc" has no required string parameter to take the prompt' });
  });
});
