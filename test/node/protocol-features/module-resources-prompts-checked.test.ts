// A tools module's `resources` and `prompts` exports are checked at load: a bad entry is an error naming it.
import { describe, expect, it } from "vitest";
import { ToolRegistry } from "../../../src/tools/registry.js";

const load = (extras: { resources?: unknown; prompts?: unknown }) => () => ToolRegistry.fromModule([], extras);
const read = () => ({ text: "" });

describe("module resources and prompts are checked at load", () => {
  it("refuses resources that are not well formed", () => {
    expect(load({ resources: {} })).toThrow("tools module: the `resources` export must be an array");
    expect(load({ resources: [{ name: "a", read }] })).toThrow('tools module: resources[0] ("a"): give exactly one of uri and uriTemplate');
    expect(load({ resources: [{ name: "a", uri: "x://a", uriTemplate: "x://{a}", read }] })).toThrow("give exactly one of uri and uriTemplate");
    expect(load({ resources: [{ name: "a", uriTemplate: "x://plain", read }] })).toThrow("uriTemplate needs {name} variables");
    expect(load({ resources: [{ name: "a", uri: "motebit://state", read }] })).toThrow("motebit:// URIs are the motebit's own");
    expect(load({ resources: [{ name: "a", uri: "x://a", read }, { name: "b", uri: "x://a", read }] })).toThrow('resources[1] ("b"): x://a is a duplicate');
    expect(load({ resources: [{ name: "a", uri: "x://a" }] })).toThrow('resources[0] ("a"): read must be a function');
  });

  it("refuses prompts that are not well formed", () => {
    const get = () => ({ messages: [] });
    expect(load({ prompts: [{ get }] })).toThrow("tools module: prompts[0]: name is missing");
    expect(load({ prompts: [{ name: "p", get }, { name: "p", get }] })).toThrow('prompts[1] ("p") is a duplicate name');
    expect(load({ prompts: [{ name: "p", arguments: [{}], get }] })).toThrow("arguments must be an array of { name, description?, required? }");
    expect(load({ prompts: [{ name: "p" }] })).toThrow('prompts[0] ("p"): get must be a function');
  });

  it("serves what is well formed, localOnly ones only to the owner", () => {
    const r = ToolRegistry.fromModule([], {
      resources: [{ name: "a", uri: "x://a", read }, { name: "b", uri: "x://b", read, localOnly: true }],
      prompts: [{ name: "p", get: () => ({ messages: [] }), localOnly: true }],
    });
    expect(r.resources("peer").map((x) => x.name)).toEqual(["a"]);
    expect(r.resources("owner").map((x) => x.name)).toEqual(["a", "b"]);
    expect(r.prompts("peer")).toEqual([]);
  });
});
