// Every listed tool carries annotations that tell the truth about its risk: R0 read-only, R2 and up destructive.
// A definition may add hints or a title, or claim more caution, never less than its risk: that is a load error.
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { protocolTools } from "../helpers/protocol-tools.js";

const def = (name: string, risk: string, annotations?: unknown) => ({
  definition: { name, description: "d", inputSchema: { type: "object" }, risk, ...(annotations !== undefined && { annotations }) },
  handler: () => ({ ok: true, data: "" }),
});

describe("tool annotations", () => {
  it("tools/list shows title, outputSchema and risk-true hints, declared extras kept", async () => {
    const h = await makeMotebit({ tools: [...protocolTools, def("draft", "R1_DRAFT", { destructiveHint: true })] });
    const tools = (await h.rpc(owner, "tools/list")).result.tools as { name: string; title?: string; annotations: object; outputSchema?: object }[];
    const by = (n: string) => tools.find((t) => t.name === n)!;
    expect(by("picture")).toMatchObject({ title: "A picture", annotations: { readOnlyHint: true, idempotentHint: true } });
    expect(by("picture").annotations).not.toHaveProperty("destructiveHint");
    expect(by("wait").annotations).toEqual({ readOnlyHint: false, destructiveHint: false });
    expect(by("change_settings").annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(by("draft").annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    expect(by("measure").outputSchema).toMatchObject({ required: ["n"] });
    // The motebit's own tools too: motebit_identity reads, motebit_task (R3) acts.
    expect(by("motebit_identity").annotations).toEqual({ readOnlyHint: true });
    expect(by("motebit_task").annotations).toEqual({ readOnlyHint: false, destructiveHint: true });
    const peerTools = (await h.rpc(peer(), "tools/list")).result.tools as { annotations?: object }[];
    expect(peerTools.every((t) => t.annotations !== undefined)).toBe(true);
  });

  it("a definition claiming less than its risk does not load", () => {
    expect(() => ToolRegistry.fromModule([def("w", "R2_WRITE", { readOnlyHint: true })])).toThrow(
      'tools module: entry 0 ("w"): annotations.readOnlyHint is true but the risk is R2_WRITE',
    );
    expect(() => ToolRegistry.fromModule([def("x", "R3_EXECUTE", { destructiveHint: false })])).toThrow(
      'tools module: entry 0 ("x"): annotations.destructiveHint is false but the risk is R3_EXECUTE',
    );
    expect(() => ToolRegistry.fromModule([def("y", "R0_READ", { sneaky: true })])).toThrow("annotations.sneaky is not an MCP tool annotation");
    expect(() => ToolRegistry.fromModule([{ ...def("z", "R0_READ"), definition: { ...def("z", "R0_READ").definition, outputSchema: { type: "string" } } }])).toThrow(
      'definition.outputSchema must be a JSON Schema with type "object"',
    );
  });
});
