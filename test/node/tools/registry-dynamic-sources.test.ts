// Tools that come and go at run time (an owner's connected MCP server) live in the same registry as the module's:
// the same checks, one catalog, and a change signal only when something a caller could see has changed.
import { describe, expect, it, vi } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

const tool = (name: string, extra: Record<string, unknown> = {}) => ({
  definition: { name, description: `the ${name} tool`, inputSchema: { type: "object" }, risk: "R0_READ", localOnly: true, ...extra },
  handler: () => ({ ok: true, data: name }),
});

describe("registry: dynamic sources", () => {
  it("lists module tools first, then each source's, and takes a source's tools away on removal", () => {
    const r = ToolRegistry.fromModule([tool("mod", { localOnly: false })]);
    expect(r.replaceSource("a", [tool("a__one"), tool("a__two")])).toEqual([]);
    r.replaceSource("b", [tool("b__one")]);
    expect(r.list("owner").map((t) => t.definition.name)).toEqual(["mod", "a__one", "a__two", "b__one"]);
    expect(r.riskOf("a__two")).toBe(0);
    r.replaceSource("a", [tool("a__three")]);
    expect(r.list("owner").map((t) => t.definition.name)).toEqual(["mod", "a__three", "b__one"]);
    expect(r.get("a__one", "owner")).toBeUndefined();
    r.removeSource("a");
    expect(r.list("owner").map((t) => t.definition.name)).toEqual(["mod", "b__one"]);
    expect(r.riskOf("a__three")).toBeNull();
  });

  it("keeps localOnly source tools from HTTP callers, by the flag alone", () => {
    const r = ToolRegistry.fromModule([]);
    r.replaceSource("a", [tool("a__owner"), tool("a__shared", { localOnly: false })]);
    expect(r.list("peer").map((t) => t.definition.name)).toEqual(["a__shared"]);
    expect(r.get("a__owner", "peer")).toBeUndefined();
    expect(r.get("a__owner", "owner")).toBeDefined();
  });

  it("leaves out, and reports, entries that fail the module checks or take a name already used", () => {
    const r = ToolRegistry.fromModule([tool("mod")]);
    r.replaceSource("b", [tool("b__x")]);
    const rejected = r.replaceSource("a", [
      tool("mod"),
      tool("b__x"),
      tool("a__ok"),
      tool("a__ok"),
      tool("motebit_evil"),
      tool("has space"),
      tool("a__noschema", { inputSchema: { type: "string" } }),
      { definition: { name: "a__nohandler", description: "d", inputSchema: { type: "object" } } },
    ]);
    expect(rejected.map((x) => x.name)).toEqual(["mod", "b__x", "a__ok", "motebit_evil", "has space", "a__noschema", "a__nohandler"]);
    expect(rejected[0].reason).toMatch(/already taken/);
    expect(rejected[3].reason).toMatch(/reserved/);
    expect(rejected[4].reason).toMatch(/source "a": entry 5 \("has space"\): name must be/);
    expect(r.list("owner").map((t) => t.definition.name)).toEqual(["mod", "b__x", "a__ok"]);
    // A source replacing its own tools may keep their names.
    expect(r.replaceSource("a", [tool("a__ok")])).toEqual([]);
  });

  it("signals a change only when what callers see changes", () => {
    const r = ToolRegistry.fromModule([]);
    const changed = vi.fn();
    const stop = r.onChange(changed);
    r.replaceSource("a", []);
    expect(changed).toHaveBeenCalledTimes(0);
    r.replaceSource("a", [tool("a__one")]);
    r.replaceSource("a", [tool("a__one")]);
    expect(changed).toHaveBeenCalledTimes(1);
    r.replaceSource("a", [tool("a__one", { risk: "R2_WRITE" })]);
    expect(changed).toHaveBeenCalledTimes(2);
    r.removeSource("a");
    r.removeSource("a");
    expect(changed).toHaveBeenCalledTimes(3);
    stop();
    r.replaceSource("a", [tool("a__one")]);
    expect(changed).toHaveBeenCalledTimes(3);
  });

  it("a tool added at run time is gated and served through the one call path", async () => {
    const h = await makeMotebit({ identity: "service", tools: [] });
    h.m.registry.replaceSource("a", [tool("a__read"), tool("a__pay", { risk: "R4_MONEY" })]);
    expect(await h.text(owner, "a__read")).toMatch(/^a__read\n\[motebit:/);
    expect(await h.call(owner, "a__pay")).toEqual({ content: [{ type: "text", text: "Policy denied: tool not allowed by governance policy" }], isError: true });
    expect((await h.rpc(peer("trusted"), "tools/call", { name: "a__read", arguments: {} })).error.message).toBe("Unknown tool: a__read");
  });
});
