// A first hour's usual slips get one line that says what is wrong and how to fix it, never a raw errno: a key file
// that is not there (call, token, oauth approve), and `call` on a server's URL without its /mcp.
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

it("call, token and oauth approve with a missing --key file: one line naming the path and how to make a key", async () => {
  const missing = join(tempDir(), "motebit.key");
  const fix = `no key file at ${missing}: give --key the path of your motebit.key, or make one with: npx motebit-local init --dir <folder>\n`;
  const runs = {
    call: ["call", "http://127.0.0.1:9/mcp", "motebit_task", "{}", "--key", missing],
    token: ["token", "--key", missing, "--sub", "00000000-0000-0000-0000-000000000000"],
    oauth: ["oauth", "approve", "abcd", "--url", "http://127.0.0.1:9/mcp", "--key", missing],
  };
  for (const [name, args] of Object.entries(runs)) {
    const r = await runCli(args);
    expect([r.code, r.stderr], name).toEqual([1, `motebit-local ${name}: ${fix}`]);
  }
});

it("call on a URL without /mcp: one line with the URL it meant, and nothing is sent", async () => {
  for (const [given, meant] of [
    ["http://127.0.0.1:9", "http://127.0.0.1:9/mcp"],
    ["http://127.0.0.1:9/health", "http://127.0.0.1:9/mcp"],
    ["http://127.0.0.1:9/m/support", "http://127.0.0.1:9/m/support/mcp"],
  ]) {
    const r = await runCli(["call", given, "motebit_task", "{}", "--token", "t".repeat(20)]);
    expect([r.code, r.stderr]).toEqual([1, `motebit-local call: ${new URL(given).href} is not a motebit's MCP endpoint, which ends in /mcp: did you mean ${meant}?\n`]);
  }
});
