import { describe, expect, it } from "vitest";
import exampleTools from "../../../examples/tools/index.js";
import { ToolRegistry } from "../../../src/tools/registry.js";

const reg = ToolRegistry.fromModule(exampleTools);
const names = (overHttp: boolean) => reg.list(overHttp ? "peer" : "owner").map((t) => t.definition.name);

describe("localOnly tools", () => {
  it("are never listed over HTTP", () => {
    expect(names(true)).toEqual(["echo", "word_count", "current_time", "slow"]);
  });

  it("are never returned by get over HTTP", () => {
    expect(reg.get("read_note", "peer")).toBeUndefined();
    expect(reg.get("echo", "peer")?.definition.name).toBe("echo");
  });

  it("are available to the owner over stdio", () => {
    expect(names(false)).toEqual(["echo", "word_count", "current_time", "slow", "read_note"]);
    expect(reg.get("read_note", "owner")?.definition.localOnly).toBe(true);
  });

  it("an unknown name is undefined on both transports", () => {
    expect(reg.get("nope", "owner")).toBeUndefined();
  });
});
