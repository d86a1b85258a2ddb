import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";

const ok = () => ({ ok: true, data: "x" });
const tool = (def: Record<string, unknown>, handler: unknown = ok) => ({
  definition: { name: "t", description: "d", inputSchema: { type: "object" }, risk: "R0_READ", ...def },
  handler,
});

describe("ToolRegistry.fromModule refuses a bad module with one clear message", () => {
  it.each<[string, unknown, RegExp]>([
    ["not an array", { default: [] }, /default export must be an array of \{ definition, handler \}/],
    ["an entry that is not an object", [tool({}), 42], /entry 1 must be an object \{ definition, handler \}/],
    ["no definition", [{ handler: ok }], /entry 0 has no definition object/],
    ["missing name", [tool({ name: undefined })], /entry 0: definition\.name is missing/],
    ["a name with spaces", [tool({ name: "my tool" })], /entry 0 \("my tool"\): name must be 1-128 characters/],
    ["missing description", [tool({ name: "a" }), tool({ name: "b", description: undefined })], /entry 1 \("b"\): definition\.description is missing/],
    ["blank description", [tool({ description: "  " })], /entry 0 \("t"\): definition\.description is missing/],
    ["missing inputSchema", [tool({ inputSchema: undefined })], /entry 0 \("t"\): definition\.inputSchema is missing/],
    ["non-object inputSchema", [tool({ inputSchema: { type: "string" } })], /inputSchema\.type must be "object"/],
    ["non-boolean localOnly", [tool({ localOnly: "yes" })], /entry 0 \("t"\): definition\.localOnly must be true or false/],
    ["a handler that is not a function", [tool({}, "nope")], /entry 0 \("t"\): handler must be a function/],
    ["a duplicate name", [tool({ name: "a" }), tool({ name: "b" }), tool({ name: "a" })], /entry 2 \("a"\) is a duplicate name/],
  ])("%s", (_, exported, message) => {
    expect(() => ToolRegistry.fromModule(exported)).toThrow(message);
  });

  it("refuses a name in the reserved motebit_ namespace", () => {
    expect(() => ToolRegistry.fromModule([tool({ name: "motebit_task" })])).toThrow(
      'tools module: entry 0 ("motebit_task"): names starting with "motebit_" are reserved for the motebit\'s own tools',
    );
  });

  it("accepts an empty module", () => {
    expect(ToolRegistry.fromModule([]).list("owner")).toEqual([]);
  });
});
