// SIGTERM to `serve` ends its connected servers' processes too, so none outlives the motebit.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, expect, it } from "vitest";
import { BIN, callText, cleanEnv, REPO, tempDir } from "../local/helpers/local-cli.js";
import { processGone, stdioFixture, writeConfig } from "./fixtures.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

it("SIGTERM to serve ends every MCP server it started", async () => {
  const config = writeConfig(tmp.dir, { a: stdioFixture(), b: stdioFixture({ env: { FIXTURE_LINGER: "1" } }) });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--config", config, "--data-dir", `${tmp.dir}/data`], env: cleanEnv(), cwd: REPO, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (c) => (stderr += c));
  const client = new Client({ name: "sigterm-test", version: "1" });
  await client.connect(transport);
  const closed = new Promise<void>((r) => (client.onclose = () => r()));
  try {
    const pids = [Number((await callText(client, "a__pid")).text.split("\n")[0]), Number((await callText(client, "b__pid")).text.split("\n")[0])];
    expect(pids.every((p) => p > 0)).toBe(true);
    process.kill(transport.pid!, "SIGTERM");
    await closed;
    expect(stderr).toMatch(/stopped \(SIGTERM\)/);
    for (const pid of pids) expect(await processGone(pid)).toBe(true);
  } finally {
    await client.close();
  }
});
