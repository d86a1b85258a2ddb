// Below the supported Node (engines.node), the CLI says in one line what to install; on a supported Node it says nothing.
import { describe, expect, it } from "vitest";
import { nodeFloorWarning } from "../../../local-stdio/bin/node-floor.js";

describe("the Node floor warning", () => {
  it("is one line naming the Node to install when the running Node is older", () => {
    const line = nodeFloorWarning("20.20.2");
    expect(line).toMatch(/^motebit supports Node 22\.18 or newer; this is Node 20\.20\.2: install Node 22 LTS from https:\/\/nodejs\.org\/[^\n]*\n$/);
  });

  it("names the floor's minor version too: Node 22 before 22.18 is below it", () => {
    expect(nodeFloorWarning("22.0.0")).toMatch(/^motebit supports Node 22\.18 or newer; this is Node 22\.0\.0: /);
    expect(nodeFloorWarning("22.17.1")).toMatch(/^motebit supports Node 22\.18 or newer; this is Node 22\.17\.1: /);
  });

  it("is empty on Node 22.18 and later", () => {
    for (const v of ["22.18.0", "22.23.5", "24.1.0", "24.0.0"]) expect(nodeFloorWarning(v)).toBe("");
  });
});
