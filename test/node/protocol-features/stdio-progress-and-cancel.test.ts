// Over stdio, progress and logs are notifications before the result, and notifications/cancelled aborts the
// request it names.
import { spawn } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, initMotebit, REPO, tempDir } from "../local/helpers/local-cli.js";
import { protocolToolsModuleSource } from "../helpers/protocol-tools.js";

const tmp = tempDir();
let client: Client;
let serveArgs: string[];

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service"]);
  const tools = join(tmp.dir, "tools.mjs");
  writeFileSync(tools, protocolToolsModuleSource);
  serveArgs = [BIN, "serve", "--identity", identity, "--tools", tools, "--direct"];
  client = new Client({ name: "owner-host", version: "1.0.0" });
  await client.connect(new StdioClientTransport({ command: process.execPath, args: serveArgs, env: cleanEnv(), cwd: REPO, stderr: "pipe" }));
});
afterAll(async () => {
  await client?.close();
  tmp.cleanup();
});

describe("stdio: progress, logs, cancellation", () => {
  it("progress and log notifications are written before the result (the wire, line by line)", async () => {
    // Read stdout itself: the SDK client may hand a notification to its handler after the result it preceded.
    const child = spawn(process.execPath, serveArgs, { env: cleanEnv(), cwd: REPO, stdio: ["pipe", "pipe", "ignore"] });
    const lines: Record<string, any>[] = [];
    let buf = "";
    const gotResult = new Promise<void>((resolve) => {
      child.stdout.on("data", (d) => {
        buf += d;
        for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
          lines.push(JSON.parse(buf.slice(0, i)));
          buf = buf.slice(i + 1);
          if (lines.at(-1)!.id === 2) resolve();
        }
      });
    });
    const send = (m: object) => child.stdin.write(JSON.stringify(m) + "\n");
    send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw", version: "1" } } });
    send({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "report", arguments: {}, _meta: { progressToken: "p" } } });
    await gotResult;
    child.kill();
    const wire = lines.filter((l) => l.id !== 1).map((l) => (l.method === "notifications/progress" ? `progress:${l.params.progress}` : l.method ? `log:${l.params.data}` : "result"));
    expect(wire).toEqual(["log:starting", "progress:1", "progress:2", "progress:3", "result"]);
  });

  it("a cancelled motebit_task ends in a failed receipt: Error: task cancelled", async () => {
    const abort = new AbortController();
    const started = Date.now();
    const call = client.callTool({ name: "motebit_task", arguments: { prompt: "x", required_capabilities: ["wait"] } }, undefined, { signal: abort.signal });
    setTimeout(() => abort.abort("stop"), 300);
    await expect(call).rejects.toThrow();
    // The task's receipt is in the owner's ledger (motebit://receipts), failed and cancelled, well before the tool's 20 s.
    let receipts: { status: string; result: string }[] = [];
    for (let i = 0; i < 50 && receipts.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 50));
      const read = await client.readResource({ uri: "motebit://receipts" });
      receipts = (JSON.parse((read.contents[0] as { text: string }).text) as { receipt: { status: string; result: string } }[]).map((s) => s.receipt);
    }
    expect(receipts[0]).toMatchObject({ status: "failed", result: "Error: task cancelled" });
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
