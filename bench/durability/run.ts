// The cost of motebit-local's durable mode (config `durability: "full"`, SQLite synchronous=FULL: an fsync per
// commit) against the default (synchronous=NORMAL in WAL: no fsync per commit), on the same disk in the same run.
// Each request is the endpoint's admission transaction (jti consume, rate bucket, session touch) plus a stored
// receipt — what a motebit_task over HTTP commits — measured back to back, alternating rounds, best round kept.
// Run: npx tsx bench/durability/run.ts [dir on the disk to measure; default the OS temp dir]   (bounded: about 15 s)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { openSqlite, type Durability } from "../../local-stdio/src/sqlite-port.js";
import { ReceiptLedger } from "../../src/log/receipt-ledger.js";
import { createSigner, signReceipt } from "../../src/protocol/index.js";
import { systemClock } from "../../src/ports.js";
import { McpEndpoint } from "../../src/server/mcp-endpoint.js";

const WINDOW_MS = 1_500;
const ROUNDS = 3;
const dir = mkdtempSync(path.join(process.argv[2] ?? tmpdir(), "motebit-durability-"));

const signer = await createSigner("0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20");
const receipt = await signReceipt(
  {
    task_id: "t", motebit_id: "m", device_id: "d", submitted_at: 1, completed_at: 2, status: "completed", result: "ok",
    tools_used: ["echo"], memories_formed: 0, prompt_hash: "a".repeat(64), result_hash: "b".repeat(64), invocation_origin: "agent-to-agent",
  },
  signer,
);

async function setup(durability: Durability) {
  const sql = openSqlite(path.join(dir, `${durability}.sqlite`), { durability });
  const ledger = new ReceiptLedger(sql);
  ledger.migrate();
  const endpoint = new McpEndpoint({
    sql,
    clock: systemClock,
    config: { rateLimitPerMinute: 1_000_000, sessionTtlMs: 30 * 60_000, maxSessionsPerCaller: 32 },
    motebit: { handleClassified: async () => ({ jsonrpc: "2.0", id: 1, result: {} }) },
  });
  const principal = { kind: "peer" as const, callerId: "bench", via: "signed_token" as const, trust: "verified" as const };
  const init = await endpoint.handle({ principal, jti: null, sessionId: null, method: "POST", mode: "json", kind: "request", message: { jsonrpc: "2.0", id: 0, method: "initialize" } });
  const session = init.headers.get("Mcp-Session-Id")!;
  let i = 0;
  const request = async () => {
    i++;
    const res = await endpoint.handle({
      principal, jti: { jti: `${durability}-${i}`, keepUntil: Date.now() + 600_000 }, sessionId: session,
      method: "POST", mode: "json", kind: "request", message: { jsonrpc: "2.0", id: i, method: "ping" },
    });
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    ledger.append({ ...receipt, task_id: `${durability}-${i}` }, "peer:bench");
  };
  return { request, close: () => sql.close() };
}

async function rate(op: () => Promise<void>): Promise<number> {
  let n = 0;
  const start = performance.now();
  while (performance.now() - start < WINDOW_MS) {
    await op();
    n++;
  }
  return (n * 1000) / (performance.now() - start);
}

const normal = await setup("normal");
const full = await setup("full");
let best = { normal: 0, full: 0 };
for (let r = 0; r < ROUNDS; r++) {
  best = { normal: Math.max(best.normal, await rate(normal.request)), full: Math.max(best.full, await rate(full.request)) };
}
normal.close();
full.close();
rmSync(dir, { recursive: true, force: true });
console.log(`requests committed (admission transaction + receipt), durability "normal": ${best.normal.toFixed(0)}/s (baseline)`);
console.log(`requests committed (admission transaction + receipt), durability "full":   ${best.full.toFixed(0)}/s`);
console.log(`ratio full/normal: ${(best.full / best.normal).toFixed(2)}`);
