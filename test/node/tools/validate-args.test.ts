import { describe, expect, it } from "vitest";
import { validateArgs } from "../../../src/tools/validate-args.js";

const schema = {
  type: "object",
  properties: {
    text: { type: "string" },
    count: { type: "integer" },
    ratio: { type: "number" },
    loud: { type: "boolean" },
    tags: { type: "array", items: { type: "number" } },
    opts: { type: "object" },
    unit: { type: "string", enum: ["c", "f"] },
    maybe: { type: ["string", "null"] },
    shape: { enum: [{ w: 1, h: 2 }, "square"] },
  },
  required: ["text"],
};

describe("validateArgs", () => {
  it("accepts arguments that fit", () => {
    expect(validateArgs(schema, { text: "hi" })).toBeNull();
    expect(
      validateArgs(schema, { text: "", count: 3, ratio: 0.5, loud: false, tags: [1, 2.5], opts: {}, unit: "f", maybe: null, shape: { h: 2, w: 1 } }),
    ).toBeNull();
  });

  it("ignores properties the schema does not describe unless additionalProperties is false", () => {
    expect(validateArgs(schema, { text: "hi", other: 1 })).toBeNull();
    expect(validateArgs({ ...schema, additionalProperties: false }, { text: "hi", other: 1 }, "echo")).toBe(
      'Invalid arguments for tool "echo": unexpected property "other"',
    );
  });

  it.each<[unknown, string]>([
    [undefined, "arguments must be an object"],
    [null, "arguments must be an object"],
    [["hi"], "arguments must be an object"],
    ["hi", "arguments must be an object"],
    [{}, '"text" is required'],
    [{ text: 5 }, '"text" must be a string'],
    [{ text: "x", count: 1.5 }, '"count" must be an integer'],
    [{ text: "x", ratio: "1" }, '"ratio" must be a number'],
    [{ text: "x", tags: [1, "two"] }, '"tags.1" must be a number'],
    [{ text: "x", loud: "true" }, '"loud" must be a boolean'],
    [{ text: "x", tags: { 0: 1 } }, '"tags" must be an array'],
    [{ text: "x", opts: [] }, '"opts" must be an object'],
    [{ text: "x", unit: "k" }, '"unit" must be one of "c", "f"'],
    [{ text: "x", maybe: 3 }, '"maybe" must be a string or a null'],
    [{ text: "x", shape: { w: 2, h: 2 } }, '"shape" must be one of {"w":1,"h":2}, "square"'],
  ])("refuses %j", (args, problem) => {
    expect(validateArgs(schema, args, "echo")).toBe(`Invalid arguments for tool "echo": ${problem}`);
    expect(validateArgs(schema, args)).toBe(`Invalid arguments: ${problem}`);
  });

  it("does not treat inherited keys as present or as described", () => {
    expect(validateArgs({ type: "object", required: ["toString"] }, {})).toBe('Invalid arguments: "toString" is required');
  });
});
