// stdout of a stdio session carries JSON-RPC and nothing else, even when a tools module prints, a line is
// not JSON, and the session ends; every diagnostic goes to stderr.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { initMotebit, runCli, tempDir } from "./helpers/local-cli.js";

const lines = (msgs: unknown[]) => msgs.map((m) => (typeof m === "string" ? m : JSON.stringify(m))).join("\n") + "\n";

describe("serve over stdio: stdout is JSON-RPC only", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("every stdout line parses as a JSON-RPC response, one per request", async () => {
    const identity = await initMotebit(tmp.dir);
    // A chatty tools module: prints to stdout while loading and while running.
    const tools = join(tmp.dir, "chatty.mjs");
    writeFileSync(
      tools,
      `console.log("loading chatty tools");
process.stdout.write("raw write at load\\n");
export default [{
  definition: { name: "chatty", description: "Prints, then answers.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: (a) => { console.log("chatty ran with", a.text); console.info("info too"); return { ok: true, data: "ok " + a.text }; },
}];
`,
    );
    const stdin = lines([
      { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } },
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 2, method: "tools/list" },
      "this line is not JSON",
      { not: "json-rpc" },
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "chatty", arguments: { text: "hi" } } },
      { jsonrpc: "2.0", id: 4, method: "tools/call", params: { name: "motebit_remember", arguments: { content: "raw stdio works" } } },
      { jsonrpc: "2.0", id: 5, method: "no/such/method" },
      { jsonrpc: "2.0", id: 6, method: "ping" },
    ]);
    const r = await runCli(["serve", "--identity", identity, "--tools", tools], { stdin });
    expect(r.code).toBe(0);

    const out = r.stdout.split("\n").filter((l) => l !== "");
    const messages = out.map((l) => JSON.parse(l));
    for (const m of messages) {
      expect(m.jsonrpc).toBe("2.0");
      expect("result" in m || "error" in m).toBe(true);
    }
    // One answer per request (the notification gets none), plus one for each line that is not a message.
    expect(messages.map((m) => m.id).sort()).toEqual([1, 2, 3, 4, 5, 6, null, null].sort());
    expect(messages.filter((m) => m.id === null).map((m) => m.error.code).sort()).toEqual([-32600, -32700]);
    expect(messages.find((m) => m.id === 5).error.code).toBe(-32601);
    expect(messages.find((m) => m.id === 3).result.content[0].text).toContain("ok hi");

    // The prints went to stderr, with the diagnostics.
    for (const printed of ["loading chatty tools", "raw write at load", "chatty ran with", "info too"]) expect(r.stdout).not.toContain(printed);
    expect(r.stderr).toContain("loading chatty tools");
    expect(r.stderr).toContain("raw write at load");
    expect(r.stderr).toContain("chatty ran with hi");
    expect(r.stderr).toMatch(/serving over stdio \(owner\)/);
    expect(r.stderr).toMatch(/stopped \(stdin closed\)/);
  });
});
