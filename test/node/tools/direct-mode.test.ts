import { describe, expect, it } from "vitest";
import { mapPromptToArgs, selectDirectTool } from "../../../src/tools/direct-mode.js";
import type { ServedTool } from "../../../src/tools/types.js";

const tool = (name: string, inputSchema: Record<string, unknown> = { type: "object" }): ServedTool => ({
  definition: { name, description: "d", inputSchema, risk: 0 },
  handler: () => ({ ok: true, data: name }),
});
const served = [tool("first"), tool("second"), tool("third")];

describe("selectDirectTool", () => {
  it("picks the tool a single required capability names", () => {
    expect(selectDirectTool(served, ["second"])?.definition.name).toBe("second");
  });
  it("falls back to the first served tool", () => {
    expect(selectDirectTool(served)?.definition.name).toBe("first");
    expect(selectDirectTool(served, [])?.definition.name).toBe("first");
    expect(selectDirectTool(served, ["not_served"])?.definition.name).toBe("first");
    expect(selectDirectTool(served, ["second", "third"])?.definition.name).toBe("first");
  });
  it("is null when nothing is served", () => {
    expect(selectDirectTool([], ["x"])).toBeNull();
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
