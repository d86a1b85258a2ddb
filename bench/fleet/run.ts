// A fleet of N motebits on one local Worker (wrangler dev --local: workerd, one Durable Object per motebit).
//   provision: POST /fleet/motebits N times (key made and identity signed inside each new object), at concurrency C
//   cold:      the edge is restarted on the same state, so every object is evicted; then one call per motebit —
//              a 2026-07-28 stateless tools/call echo with a fresh signed token (sub = that motebit): the object
//              starts (profile, key, identity check, migrations) and the isolate asks the directory once per name
//   warm:      the same call again right after each motebit's first, its object surely live; then a second sweep
//              over all of them (each object last called one sweep earlier)
//   baseline:  the same call to the deployment's own motebit (/mcp, one object) in the same run, cold then warm
// Memory per object: SQLite bytes per object in the persist dir, and workerd RSS growth per object made live.
// Rate limits are off (MOTEBIT_RATE_LIMIT=0): the one caller makes 2N calls across the fleet.
//   npx tsx bench/fleet/run.ts [N=1000] [concurrency=8]
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { cpus, loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { createSigner, mintBearerToken, type Signer } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { freePort, startLocalEdge, type LocalEdge } from "../../test/node/edge/local-edge.js";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";

const N = Number(process.argv[2] ?? 1000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const FLEET_TOKEN = "bench-fleet-operator-token";
const V = "2026-07-28";
const CALLER = keys.known_caller;
const KNOWN = { [CALLER.sovereign_motebit_id]: { public_key: CALLER.public_key_hex, trust: "verified" } };

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** Runs f(0..n-1) with `c` in flight; returns each call's latency in ms and the wall time in s. */
async function pool(n: number, c: number, f: (i: number) => Promise<void>): Promise<{ lat: number[]; seconds: number }> {
  const lat: number[] = [];
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: Math.min(c, n) }, async () => {
      for (let i = next++; i < n; i = next++) {
        const t = performance.now();
        await f(i);
        lat.push(performance.now() - t);
      }
    }),
  );
  return { lat: lat.sort((a, b) => a - b), seconds: (performance.now() - t0) / 1000 };
}

const name = (i: number) => `m-${String(i).padStart(5, "0")}`;

async function provision(edge: LocalEdge, i: number): Promise<string> {
  const res = await fetch(`${edge.url}/fleet/motebits`, {
    method: "POST",
    headers: { Authorization: `Bearer ${FLEET_TOKEN}`, "Content-Type": "application/json" },
    body: JSON.stringify({ name: name(i), known_callers: KNOWN }),
  });
  if (res.status !== 201) throw new Error(`create ${name(i)}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { motebit_id: string }).motebit_id;
}

/** One stateless echo with a fresh token for `sub`, at `path` (/mcp or /m/<name>/mcp). */
async function echo(edge: LocalEdge, signer: Signer, path: string, sub: string): Promise<void> {
  const token = await mintBearerToken({ mid: CALLER.sovereign_motebit_id, did: "bench", aud: "mcp:call", sub }, signer);
  const res = await fetch(`${edge.url}${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer motebit:${token}`,
      "Content-Type": "application/json",
      Accept: "application/json",
      "MCP-Protocol-Version": V,
      "Mcp-Method": "tools/call",
      "Mcp-Name": "echo",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "echo", arguments: { text: "hi" }, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} } },
    }),
  });
  const body = await res.text();
  if (res.status !== 200 || !body.includes('"hi\\n[motebit:')) throw new Error(`${path}: HTTP ${res.status} ${body.slice(0, 300)}`);
}

/** Resident memory of the workerd processes in the edge's process group, in bytes. */
function workerdRss(pgid: number): number {
  let total = 0;
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      if (Number(fields[2]) !== pgid || !stat.includes("(workerd)")) continue;
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (rss) total += Number(rss[1]) * 1024;
    } catch {
      /* the process ended while we looked */
    }
  }
  return total;
}

/**
 * Every Durable Object's SQLite database under the persist dir (miniflare's metadata.sqlite aside): its bytes on
 * disk (database + WAL; workerd had not checkpointed) and its logical size, the pages in use as SQLite reports them.
 */
function objectDatabases(dir: string): { disk: number[]; logical: number[] } {
  const disk: number[] = [];
  const logical: number[] = [];
  const root = join(dir, "v3", "do");
  for (const ns of readdirSync(root)) {
    for (const f of readdirSync(join(root, ns)).filter((n) => n.endsWith(".sqlite") && n !== "metadata.sqlite")) {
      const p = join(root, ns, f);
      const wal = `${p}-wal`;
      disk.push(statSync(p).size + (existsSync(wal) ? statSync(wal).size : 0));
      const db = openSqlite(p, { readOnly: true });
      const pragma = (name: string) => Object.values(db.all(`PRAGMA ${name}`)[0])[0] as number;
      logical.push((pragma("page_count") - pragma("freelist_count")) * pragma("page_size"));
      db.close();
    }
  }
  return { disk: disk.sort((a, b) => a - b), logical: logical.sort((a, b) => a - b) };
}

const mb = (b: number) => `${(b / 1024 / 1024).toFixed(1)} MB`;
const kb = (b: number) => `${(b / 1024).toFixed(1)} KB`;
const ms = (v: number) => `${v.toFixed(1)} ms`;

async function main() {
  const started = Date.now();
  const signer = await createSigner(CALLER.seed_hex);
  const persistDir = mkdtempSync(join(tmpdir(), "motebit-fleet-bench-"));
  const port = await freePort();
  const vars = {
    MOTEBIT_FLEET_TOKEN: FLEET_TOKEN,
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_KNOWN_CALLERS: JSON.stringify(KNOWN),
    MOTEBIT_RATE_LIMIT: "0",
  };
  // The preflight probe answers without touching any object, so "cold" below is cold for the baseline too.
  const start = () => startLocalEdge(vars, { port, persistDir, args: ["--log-level", "error"], readyTimeoutMs: 120_000, probe: "preflight" });
  let edge = await start();
  try {
    const rssEmpty = workerdRss(edge.pgid);
    const made = await pool(N, CONCURRENCY, async (i) => void (ids[i] = await provision(edge, i)));
    const rssProvisioned = workerdRss(edge.pgid);
    await echo(edge, signer, "/mcp", keys.server.sovereign_motebit_id); // the baseline's object exists before the restart, as the fleet's do
    await edge.stop();
    const dbs = objectDatabases(persistDir);

    // Restart on the same state: every object is now cold.
    edge = await start();
    const rssRestarted = workerdRss(edge.pgid);
    const baseCold = await pool(1, 1, () => echo(edge, signer, "/mcp", keys.server.sovereign_motebit_id));
    // Each motebit's first call, then at once its second: the object is surely still live for the warm one.
    const coldLat: number[] = [];
    const warmLat: number[] = [];
    const sweep = await pool(N, CONCURRENCY, async (i) => {
      for (const into of [coldLat, warmLat]) {
        const t = performance.now();
        await echo(edge, signer, `/m/${name(i)}/mcp`, ids[i]);
        into.push(performance.now() - t);
      }
    });
    const cold = { lat: coldLat.sort((a, b) => a - b), seconds: sweep.seconds };
    const warm = { lat: warmLat.sort((a, b) => a - b), seconds: sweep.seconds };
    const rssLive = workerdRss(edge.pgid);
    // A second sweep: each object was last called about one sweep ago (the local runtime may have evicted it since).
    const again = await pool(N, CONCURRENCY, (i) => echo(edge, signer, `/m/${name(i)}/mcp`, ids[i]));
    const baseWarm = await pool(N, CONCURRENCY, () => echo(edge, signer, "/mcp", keys.server.sovereign_motebit_id));

    console.log(`fleet bench: ${N} motebits, concurrency ${CONCURRENCY}, wrangler dev --local (workerd); ${cpus().length} cores, load ${loadavg().map((l) => l.toFixed(2)).join(" ")}`);
    console.log(`provision   ${(N / made.seconds).toFixed(1)} motebits/s (${made.seconds.toFixed(1)} s for ${N}); per create p50 ${ms(percentile(made.lat, 50))} p99 ${ms(percentile(made.lat, 99))}`);
    console.log(`cold call   p50 ${ms(percentile(cold.lat, 50))} p99 ${ms(percentile(cold.lat, 99))}   (first call to each motebit after a restart)`);
    console.log(`warm call   p50 ${ms(percentile(warm.lat, 50))} p99 ${ms(percentile(warm.lat, 99))}   (its second call, right after; ${((2 * N) / sweep.seconds).toFixed(0)} calls/s over both)`);
    console.log(`next sweep  p50 ${ms(percentile(again.lat, 50))} p99 ${ms(percentile(again.lat, 99))}   (each again, ~${sweep.seconds.toFixed(0)} s after its last call; ${(N / again.seconds).toFixed(0)} calls/s)`);
    console.log(`baseline    the deployment's own motebit at /mcp, same call: cold ${ms(baseCold.lat[0])}; warm p50 ${ms(percentile(baseWarm.lat, 50))} p99 ${ms(percentile(baseWarm.lat, 99))} (${(N / baseWarm.seconds).toFixed(0)} calls/s, one object)`);
    console.log(
      `ratio       fleet warm p50 / single warm p50 = ${(percentile(warm.lat, 50) / percentile(baseWarm.lat, 50)).toFixed(2)}; ` +
        `fleet cold p50 / fleet warm p50 = ${(percentile(cold.lat, 50) / percentile(warm.lat, 50)).toFixed(2)}`,
    );
    console.log(
      `storage     ${dbs.disk.length} object databases (${N} fleet + directory + the default motebit); ` +
        `per object p50 ${kb(percentile(dbs.logical, 50))} in use (${kb(percentile(dbs.disk, 50))} on disk with the WAL), ` +
        `largest ${kb(dbs.logical[dbs.logical.length - 1])} in use; total ${mb(dbs.logical.reduce((a, b) => a + b, 0))} in use, ${mb(dbs.disk.reduce((a, b) => a + b, 0))} on disk`,
    );
    console.log(
      `workerd RSS empty ${mb(rssEmpty)} → ${N} provisioned (live) ${mb(rssProvisioned)}: ${kb((rssProvisioned - rssEmpty) / N)} per object; ` +
        `after restart ${mb(rssRestarted)} → all called (live) ${mb(rssLive)}: ${kb((rssLive - rssRestarted) / N)} per object`,
    );
    console.log(`total bench time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await edge.stop();
    rmSync(persistDir, { recursive: true, force: true });
  }
}

const ids: string[] = [];
await main();
