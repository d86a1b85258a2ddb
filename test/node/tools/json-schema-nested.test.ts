import { describe, expect, it } from "vitest";
import { compileSchema, schemaProblem } from "../../../src/tools/json-schema.js";
import { ToolRegistry } from "../../../src/tools/registry.js";

const order = {
  type: "object",
  properties: {
    customer: {
      type: "object",
      properties: { name: { type: "string", minLength: 1 }, tier: { enum: ["gold", "basic"] } },
      required: ["name"],
      additionalProperties: false,
    },
    lines: { type: "array", items: { $ref: "#/$defs/line" }, minItems: 1 },
  },
  required: ["customer", "lines"],
  $defs: { line: { type: "object", properties: { sku: { type: "string", pattern: "^[A-Z]{3}$" }, qty: { type: "integer", minimum: 1 } }, required: ["sku", "qty"] } },
};

describe("full JSON Schema (draft 2020-12) for tool schemas", () => {
  const ok = { customer: { name: "Ada" }, lines: [{ sku: "ABC", qty: 2 }] };

  it("accepts a nested value that fits", () => {
    expect(schemaProblem(order, ok)).toBeNull();
  });

  it.each<[unknown, string]>([
    [{ customer: {}, lines: ok.lines }, '"customer.name" is required'],
    [{ customer: { name: 5 }, lines: ok.lines }, '"customer.name" must be a string'],
    [{ customer: { name: "Ada", x: 1 }, lines: ok.lines }, 'unexpected property "customer.x"'],
    [{ customer: { name: "Ada", tier: "silver" }, lines: ok.lines }, '"customer.tier" must be one of "gold", "basic"'],
    [{ customer: ok.customer, lines: [] }, '"lines": Array has too few items (0 < 1)'],
    [{ customer: ok.customer, lines: [{ sku: "ABC", qty: 0 }] }, '"lines.0.qty": 0 is less than 1'],
    [{ customer: ok.customer, lines: [{ sku: "abc", qty: 1 }] }, '"lines.0.sku": String does not match pattern'],
    [{ customer: ok.customer, lines: [{ sku: "ABC" }] }, '"lines.0.qty" is required'],
  ])("refuses %j naming the nested place", (value, problem) => {
    expect(schemaProblem(order, value)).toBe(problem);
  });

  it("compiles each schema object once and leaves the caller's object untouched", () => {
    const frozen = Object.freeze({ type: "object", properties: Object.freeze({ a: Object.freeze({ $ref: "#/$defs/a" }) }), $defs: Object.freeze({ a: { type: "string" } }) });
    expect(compileSchema(frozen)).toBe(compileSchema(frozen));
    expect(schemaProblem(frozen, { a: 1 })).toBe('"a" must be a string');
    expect(Object.getOwnPropertyNames(frozen.properties.a)).toEqual(["$ref"]);
  });

  it.each<[Record<string, unknown>, RegExp]>([
    [{ type: "object", properties: { a: { $ref: "#/$defs/missing" } } }, /\$ref "#\/\$defs\/missing" names no schema/],
    [{ type: "object", properties: { a: { type: "text" } } }, /#\/properties\/a\/type: "text" is not a JSON Schema type/],
    [{ type: "object", properties: { a: { type: "string", pattern: "(" } } }, /#\/properties\/a\/pattern: "\(" is not a regular expression/],
    [{ type: "object", required: "a" }, /#\/required must be an array/],
    [{ type: "object", properties: { a: { items: 5 } } }, /#\/properties\/a\/items must be a schema/],
    [{ type: "object", $dynamicRef: "#x" }, /#\/\$dynamicRef is not supported/],
  ])("a schema it cannot compile is a load error naming the tool: %j", (inputSchema, problem) => {
    const load = () => ToolRegistry.fromModule([{ definition: { name: "bad", description: "d", inputSchema }, handler: () => 1 }]);
    expect(load).toThrow(/tools module: entry 0 \("bad"\): definition\.inputSchema cannot be compiled: /);
    expect(load).toThrow(problem);
  });

  it("checks outputSchema at load too", () => {
    const load = () =>
      ToolRegistry.fromModule([{ definition: { name: "out", description: "d", inputSchema: { type: "object" }, outputSchema: { type: "object", properties: { n: { $ref: "#/nope" } } } }, handler: () => 1 }]);
    expect(load).toThrow(/\("out"\): definition\.outputSchema cannot be compiled: \$ref "#\/nope"/);
  });
});
