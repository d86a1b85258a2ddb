// Below the supported Node (engines.node), the CLI says in one line what to install; on a supported Node it says nothing.
import { describe, expect, it } from "vitest";
import { nodeFloorWarning } from "../../../local-stdio/bin/node-floor.js";

describe("the Node floor warning", () => {
  it("is one line naming the Node to install when the running Node is older", () => {
    const line = nodeFloorWarning("20.20.2");
    expect(line).toMatch(/^motebit supports Node 22 or newer; this is Node 20\.20\.2: install Node 22 LTS from https:\/\/nodejs\.org\/[^\n]*\n$/);
  });

  it("is empty on Node 22 and later", () => {
    for (const v of ["22.0.0", "22.23.5", "24.1.0"]) expect(nodeFloorWarning(v)).toBe("");
  });
});
