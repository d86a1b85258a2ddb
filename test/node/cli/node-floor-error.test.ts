// Below the supported Node (engines.node), the CLI stops with one line saying what to install; on a supported Node it says nothing.
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { nodeFloorError } from "../../../local-stdio/bin/node-floor.js";

describe("the Node floor", () => {
  it("is one line naming the Node to install when the running Node is older", () => {
    for (const v of ["20.20.2", "22.17.1"]) {
      expect(nodeFloorError(v)).toBe(`motebit needs Node 22.18 or newer; this is Node ${v}: install Node 22 LTS from https://nodejs.org/ (or \`nvm install 22\`)\n`);
    }
  });

  it("is empty on Node 22.18 and later", () => {
    for (const v of ["22.18.0", "22.23.5", "23.0.0", "24.1.0"]) expect(nodeFloorError(v)).toBe("");
  });

  it("passes on the running Node: the script exits 0 and prints nothing", () => {
    const out = spawnSync(process.execPath, [join(import.meta.dirname, "../../../local-stdio/bin/node-floor.js")], { encoding: "utf8" });
    expect([out.status, out.stderr]).toEqual([0, ""]);
  });
});

describe("the test suite below the Node floor", () => {
  it("stops before any test file runs, with the CLI's one line and a non-zero exit", () => {
    // The running Node made to report an older version before vitest loads its config.
    const older = "data:text/javascript,Object.defineProperty(process.versions,'node',{value:'20.20.2'})";
    const root = join(import.meta.dirname, "../../..");
    const out = spawnSync(process.execPath, ["--import", older, join(root, "node_modules/vitest/vitest.mjs"), "run", "test/node/cli/node-floor-error.test.ts"], {
      cwd: root,
      encoding: "utf8",
      timeout: 20_000,
    });
    expect([out.status, out.stderr, out.stdout]).toEqual([1, nodeFloorError("20.20.2"), ""]);
  });
});
