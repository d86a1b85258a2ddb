import { expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";

it("serves the inputSchema whole: enums, arrays, nested objects and unknown keywords survive", () => {
  const inputSchema = {
    type: "object",
    $schema: "https://json-schema.org/draft/2020-12/schema",
    properties: {
      unit: { type: "string", enum: ["c", "f"], default: "c" },
      tags: { type: "array", items: { type: "string", minLength: 1 }, maxItems: 5 },
      where: {
        type: "object",
        properties: { lat: { type: "number", minimum: -90 }, lon: { type: "number" }, extra: { oneOf: [{ type: "null" }, { type: "string" }] } },
        required: ["lat", "lon"],
      },
    },
    required: ["unit"],
    additionalProperties: false,
    "x-vendor": { keep: true },
  };
  const expected = structuredClone(inputSchema);
  const reg = ToolRegistry.fromModule([{ definition: { name: "weather", description: "w", inputSchema, risk: 0 }, handler: () => ({ ok: true, data: 1 }) }]);
  const served = reg.get("weather", "peer")!.definition.inputSchema;
  expect(served).toEqual(expected);
  expect(reg.list("peer")[0].definition.inputSchema).toEqual(expected);
});
