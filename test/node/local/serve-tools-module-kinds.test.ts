// --tools takes an ES module as .mjs, .js or .ts, inside a "type": "module" package or not.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, tempDir } from "./helpers/local-cli.js";

const MODULE = (name: string, typed = false) => `${typed ? 'import type { ServedTool } from "motebit-types-not-needed";\n' : ""}
const tools${typed ? ": ServedTool[]" : ""} = [{
  definition: { name: "${name}", description: "A ${name} tool.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ" },
  handler: () => ({ ok: true, data: "from ${name}" }),
}];
export default tools;
`;

const LIST = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }) + "\n";

describe("serve --tools module kinds", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  async function toolNames(toolsPath: string): Promise<string[]> {
    const r = await runCli(["serve", "--data-dir", join(tmp.dir, "state"), "--tools", toolsPath], { stdin: LIST });
    expect(r.code, r.stderr).toBe(0);
    return JSON.parse(r.stdout.trim()).result.tools.map((t: { name: string }) => t.name);
  }

  it("loads .mjs, .js and .ts files, in a module package or not", async () => {
    writeFileSync(join(tmp.dir, "a.mjs"), MODULE("from_mjs"));
    mkdirSync(join(tmp.dir, "pkg"));
    writeFileSync(join(tmp.dir, "pkg", "package.json"), '{"type":"module"}');
    writeFileSync(join(tmp.dir, "pkg", "tools.js"), MODULE("from_js"));
    writeFileSync(join(tmp.dir, "c.ts"), MODULE("from_ts", true));
    expect(await toolNames(join(tmp.dir, "a.mjs"))).toContain("from_mjs");
    expect(await toolNames(join(tmp.dir, "pkg", "tools.js"))).toContain("from_js");
    expect(await toolNames(join(tmp.dir, "c.ts"))).toContain("from_ts");
    writeFileSync(join(tmp.dir, "plain.js"), MODULE("plain_js"));
    expect(await toolNames(join(tmp.dir, "plain.js"))).toContain("plain_js");
    writeFileSync(join(tmp.dir, "pkg", "typed.ts"), MODULE("module_ts", true));
    expect(await toolNames(join(tmp.dir, "pkg", "typed.ts"))).toContain("module_ts");
  });

  it("a .ts module in a package without \"type\": \"module\" loads with nothing on stderr (Node's reparse note is dropped)", async () => {
    mkdirSync(join(tmp.dir, "typeless"));
    writeFileSync(join(tmp.dir, "typeless", "package.json"), "{}");
    writeFileSync(join(tmp.dir, "typeless", "tools.ts"), MODULE("typeless_ts", true));
    const r = await runCli(["serve", "--data-dir", join(tmp.dir, "state"), "--tools", join(tmp.dir, "typeless", "tools.ts")], { stdin: LIST });
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout.trim()).result.tools.map((t: { name: string }) => t.name)).toContain("typeless_ts");
    expect(r.stderr).not.toContain("Warning");
  });
});
