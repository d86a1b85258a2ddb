// SIGTERM to `serve` ends its connected servers' processes too, so none outlives the motebit.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { readFileSync } from "node:fs";
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

it("a server that timed out at start (and ignores its stdin's end) is gone once serve has stopped", async () => {
  const pidFile = `${tmp.dir}/mute.pid`;
  // Writes its pid, then never answers and never exits by itself: a server stuck behind a proxy.
  const mute = `require("fs").writeFileSync(${JSON.stringify(pidFile)}, String(process.pid)); setInterval(() => {}, 1e9)`;
  // Long enough for node to start and write the pid on a loaded machine; the server still never answers.
  const config = writeConfig(tmp.dir, { mute: { command: process.execPath, args: ["-e", mute], startupTimeoutMs: 5000 } });
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", "--config", config, "--data-dir", `${tmp.dir}/data-mute`], env: cleanEnv(), cwd: REPO, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (c) => (stderr += c));
  const client = new Client({ name: "mute-test", version: "1" });
  await client.connect(transport);
  const pid = Number(readFileSync(pidFile, "utf8"));
  expect(stderr).toContain('MCP server "mute" did not start: did not answer within 5000 ms');
  const servePid = transport.pid!;
  await client.close(); // stdin ends: serve stops at once
  expect(await processGone(servePid)).toBe(true);
  const gone = await processGone(pid, 1_000);
  if (!gone) process.kill(pid, "SIGKILL"); // never leave it behind, even when the check fails
  expect(gone).toBe(true);
});
