// A call to one of the owner's connected MCP servers through the motebit, beside the same call made straight to
// the server, in the same run: the motebit's share is stdio framing, the gate, validation, the tag, the audit
// row and the second hop. Both sides use the SDK's stdio client on the stdio fixture server; calls are
// sequential, in alternating rounds, best round kept, so load on a shared machine skews both alike.
// Run: npx tsx bench/mcp-servers/run.ts [N=300]   (bounded: N calls per round, 3 rounds per side)
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const REPO = resolve(import.meta.dirname, "../..");
const FIXTURE = join(REPO, "test/fixtures/mcp-servers/stdio-server.mjs");
const N = Number(process.argv[2] ?? 300);
const ROUNDS = 3;

async function connect(command: string, args: string[]): Promise<Client> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, cwd: REPO, stderr: "ignore" }));
  return client;
}

/** Calls per second and latency percentiles over N sequential calls. */
async function round(client: Client, name: string): Promise<{ rate: number; p50: number; p99: number }> {
  const times: number[] = [];
  const start = performance.now();
  for (let i = 0; i < N; i++) {
    const t = performance.now();
    await client.callTool({ name, arguments: { text: `call ${i}` } });
    times.push(performance.now() - t);
  }
  const total = performance.now() - start;
  times.sort((a, b) => a - b);
  return { rate: (N * 1000) / total, p50: times[Math.floor(N * 0.5)], p99: times[Math.min(N - 1, Math.floor(N * 0.99))] };
}

const dir = mkdtempSync(join(tmpdir(), "motebit-bench-mcp-"));
try {
  const config = join(dir, "motebit.json");
  writeFileSync(config, JSON.stringify({ mcpServers: { fx: { command: process.execPath, args: [FIXTURE] } } }), { mode: 0o600 });
  const direct = await connect(process.execPath, [FIXTURE]);
  const motebit = await connect(process.execPath, [join(REPO, "local-stdio/bin/motebit-local.js"), "serve", "--config", config, "--data-dir", join(dir, "data")]);
  await round(direct, "echo");
  await round(motebit, "fx__echo");
  let best = { ours: { rate: 0, p50: 0, p99: 0 }, base: { rate: 0, p50: 0, p99: 0 } };
  for (let r = 0; r < ROUNDS; r++) {
    const base = await round(direct, "echo");
    const ours = await round(motebit, "fx__echo");
    if (base.rate > best.base.rate) best.base = base;
    if (ours.rate > best.ours.rate) best.ours = ours;
  }
  await direct.close();
  await motebit.close();
  const f = (x: { rate: number; p50: number; p99: number }) => `${x.rate.toFixed(0)} calls/s, p50 ${x.p50.toFixed(2)} ms, p99 ${x.p99.toFixed(2)} ms`;
  console.log(`connected MCP server tool, sequential, N=${N}, best of ${ROUNDS}`);
  console.log(`  through the motebit (stdio → gate → SDK client → fixture): ${f(best.ours)}`);
  console.log(`  straight to the fixture server (SDK stdio client):          ${f(best.base)}`);
  console.log(`  ratio: ${(best.ours.rate / best.base.rate).toFixed(2)}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
