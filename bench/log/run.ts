// The transparency log's cost (docs/protocol.md §10), in three parts:
//   1. append and proofs at 10k and at 1M leaves, over a file-backed SQLite as motebit-local keeps it: one append in
//      its own transaction (as the ledger does), an inclusion proof for a random leaf, a consistency proof between
//      random sizes, the root (what a head signs). Appends stay flat and proofs grow with log n, not n.
//   2. motebit_task (direct mode, static token, 2026-07-28 stateless calls) with the log and without it (the same
//      host, its ledger storing the receipt row only and giving no proof for _meta), in alternating rounds, best
//      round of each kept; the ratio is with / without. Twice: the app in process (app.fetch: the work alone, the
//      harshest ratio), and motebit-local's HTTP host over loopback, one call at a time (what a caller sees).
// Run: npm run bench:log   (or npx tsx bench/log/run.ts [tasks per round=1000] [rounds=5] [--only=tree|tasks] [--over=app.fetch|http]); about
// 2 minutes, mostly filling 1M leaves. The machine's load average is printed: neighbours' load skews absolute figures.
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";
import { leafHash } from "../../src/log/merkle.js";
import { systemClock } from "../../src/ports.js";
import { utf8 } from "../../src/protocol/index.js";
import { InProcessBackend } from "../../src/server/in-process-backend.js";
import { serveHttp } from "../../local-stdio/src/serve/http-host.js";
import { createApp } from "../../src/server/app.js";
import { ReceiptLedger } from "../../src/log/receipt-ledger.js";
import keys from "../../test/fixtures/edge/keys.json";
import { benchMotebit } from "../edge/node-servers.js";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const ONLY = process.argv.find((a) => a.startsWith("--only="))?.slice("--only=".length) ?? null;
const OVER = process.argv.find((a) => a.startsWith("--over="))?.slice("--over=".length) ?? null;
const TASKS = Number(positional[0] ?? 1000);
const ROUNDS = Number(positional[1] ?? 5);
const STATIC_TOKEN = "bench-static-token-0123456789abcdef";
const V = "2026-07-28";

const started = performance.now();
const us = (ms: number) => (ms * 1000).toFixed(1).padStart(8) + " µs";

/** Mean wall time per call of `op` over `n` calls, in ms. */
function each(n: number, op: (i: number) => unknown): number {
  const t = performance.now();
  for (let i = 0; i < n; i++) op(i);
  return (performance.now() - t) / n;
}

// ---- 1. append and proofs at 10k and 1M leaves ----
console.log(`load average ${loadavg().map((l) => l.toFixed(1)).join(" ")}\n`);
if (ONLY !== "tasks") tree();

function tree(): void {
  const dir = mkdtempSync(join(tmpdir(), "motebit-bench-log-"));
  try {
    const sql = openSqlite(join(dir, "log.sqlite"));
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    const log = ledger.log;
    let filled = 0;
    const fillTo = (n: number) => {
      const t = performance.now();
      // Filling in batches of 10k leaves per transaction: the bench's set-up, not a figure.
      while (filled < n) {
        const end = Math.min(n, filled + 10_000);
        sql.transaction(() => {
          for (; filled < end; filled++) log.append(`fill-${filled}`, leafHash(utf8(`leaf ${filled}`)));
        });
      }
      return (performance.now() - t) / 1000;
    };
    const rnd = (n: number) => Math.floor(Math.random() * n);
    console.log("leaves      append (own txn)   inclusion proof   consistency proof   root");
    for (const size of [10_000, 1_000_000]) {
      const secs = fillTo(size - 1000);
      const append = each(1000, (i) => sql.transaction(() => log.append(`m-${size}-${i}`, leafHash(utf8(`m ${size} ${i}`)))));
      filled += 1000;
      const n = log.size();
      const inclusion = each(2000, () => log.inclusion(rnd(n), n));
      const consistency = each(2000, () => {
        const second = 1 + rnd(n);
        return log.consistency(1 + rnd(second), second);
      });
      const root = each(2000, () => log.root(n - rnd(1000)));
      console.log(`${n.toLocaleString("en-US").padStart(9)}   ${us(append)}        ${us(inclusion)}       ${us(consistency)}       ${us(root)}   (filled in ${secs.toFixed(0)} s)`);
    }
    sql.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
}
}

// ---- 2. motebit_task with the log and without it ----
if (ONLY !== "tree") await tasks();

async function tasks(): Promise<void> {
  const env = { MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: STATIC_TOKEN, MOTEBIT_RATE_LIMIT: "0" };

  async function side(withLog: boolean, over: "app.fetch" | "http") {
    const { sql, config, motebit } = await benchMotebit(env);
    if (!withLog) {
      // The ledger as it was before the log: the receipt row only, and no proof for _meta.
      const ledger = motebit.ledger as unknown as { insert(...a: unknown[]): void; append(...a: unknown[]): number; proofFor(r: unknown): null };
      ledger.append = (...a) => (ledger.insert(...a), 0);
      ledger.proofFor = () => null;
    }
    let send: (req: Request) => Promise<Response>;
    let close = async () => {};
    if (over === "http") {
      const host = await serveHttp({ motebit, sql, clock: systemClock, config, host: "127.0.0.1", port: 0 });
      send = (req) => fetch(new URL(new URL(req.url).pathname, host.url), { method: req.method, headers: req.headers, body: req.body, duplex: "half" } as RequestInit);
      close = () => host.close();
    } else {
      // One backend for the host's life, as motebit-local and the Durable Object build it.
      const backend = new InProcessBackend({ config, sql, clock: systemClock, motebit });
      const app = createApp({ backend });
      send = async (req) => app.fetch(req);
    }
    let n = 0;
    const call = async () => {
      const res = await send(new Request("http://127.0.0.1/mcp", {
        method: "POST",
        headers: { Authorization: `Bearer ${STATIC_TOKEN}`, Accept: "application/json", "Content-Type": "application/json", "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "motebit_task" },
        body: JSON.stringify({ jsonrpc: "2.0", id: ++n, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: `echo task ${n}` }, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} } } }),
      }));
      const body = (await res.json()) as { result?: { _meta?: Record<string, unknown> } };
      if (res.status !== 200 || body.result === undefined || (body.result._meta?.["motebit/log"] !== undefined) !== withLog) throw new Error(`motebit_task answered ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
    };
    return { call, close: async () => (await close(), sql.close()) };
}

const rate = async (s: { call(): Promise<void> }) => {
  const t = performance.now();
  for (let i = 0; i < TASKS; i++) await s.call();
  return (TASKS * 1000) / (performance.now() - t);
};
for (const over of (["app.fetch", "http"] as const).filter((o) => OVER === null || o === OVER)) {
  const withLog = await side(true, over);
  const without = await side(false, over);
  for (let i = 0; i < 50; i++) await withLog.call(), await without.call();
  let a = 0;
  let b = 0;
  // Each round's own ratio (the two sides back to back) holds steadier than best against best on a loaded machine.
  const ratios: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const rb = await rate(without);
    const ra = await rate(withLog);
    b = Math.max(b, rb);
    a = Math.max(a, ra);
    ratios.push(ra / rb);
  }
  const median = ratios.sort((x, y) => x - y)[Math.floor(ROUNDS / 2)];
  console.log(`\nmotebit_task (direct mode, ${over === "http" ? "motebit-local's HTTP host over loopback, one at a time" : "the app in process, app.fetch"}), best of ${ROUNDS} rounds of ${TASKS}:`);
  console.log(`  with the log     ${a.toFixed(0).padStart(6)} /s`);
  console.log(`  without the log  ${b.toFixed(0).padStart(6)} /s`);
  console.log(`  ratio ${(a / b).toFixed(3)} best / ${median.toFixed(3)} median of the rounds' own   (target ≥ 0.95)`);
  await withLog.close();
  await without.close();
}
}
console.log(`\nload average ${loadavg().map((l) => l.toFixed(1)).join(" ")}; ${((performance.now() - started) / 1000).toFixed(0)} s`);
