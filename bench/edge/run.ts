// The edge against a bare MCP server: the same tools/call echo, driven the same way.
//   edge:     the real local edge (wrangler dev --local: Worker + Durable Object in workerd), each request with a
//             fresh signed motebit token (signature check in the Worker, jti consume + rate limit + session in the object)
//   node app: the same Hono app and src/server pieces in this Node process (motebit-local's HTTP mode) over in-memory
//             SQLite, the same signed tokens: our auth, replay set, rate limit, sessions and gate, minus workerd and
//             wrangler dev's proxy — the fair comparison with the baseline, which runs in the same runtime
//   baseline: the MCP SDK's McpServer + StreamableHTTPServerTransport in this Node process, no auth, JSON responses
//   workerd baseline: Cloudflare's createMcpHandler (agents/mcp/server) over an SDK v2 McpServer, in the same
//             workerd as the edge (bench/edge/baseline-worker.ts), no auth: the fair comparison for the edge
//   OAuth (issue 41): the edge with an OAuth access token from its own flow against the same createMcpHandler behind
//             workers-oauth-provider (its KV in the same workerd) with a token from that provider's flow
//             (oauth-tokens.ts): the like-for-like anchor for an OAuth-protected motebit; and the edge with a
//             DPoP-bound access token (a fresh proof per request)
//   McpAgent: Cloudflare's McpAgent (a Durable Object per session) in the same workerd, no auth (issue 40)
// Prints requests/s and p50/p99 latency for both, and the ratios. Bounded: N requests per side, stops early at a time cap.
// --otel: a second local edge with OpenTelemetry on (OTEL_EXPORTER_OTLP_ENDPOINT at an OTLP sink in this process, every
// span sampled, posted from the Worker and the object in waitUntil) takes turns beside the first. The edge sides print
// the CPU of their whole local edge (wrangler dev's proxy and workerd: its process group, from /proc) per request.
//   npx tsx bench/edge/run.ts [N=1000] [concurrency=8] [--otel]
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createSigner, mintBearerToken } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { startLocalEdge } from "../../test/node/edge/local-edge.js";
import { startBaseline, startNodeApp } from "./node-servers.js";
import { BENCH_TOOL, motebitCall } from "../tool-call.js";
import { dpopProofs } from "./dpop-proofs.js";
import { edgeAccessToken, edgeDpopAccessToken, providerAccessToken } from "./oauth-tokens.js";
import { workerdCpuMs } from "./workerd-cpu.js";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const N = Number(positional[0] ?? 1000);
const CONCURRENCY = Number(positional[1] ?? 8);
const OTEL = process.argv.includes("--otel");
const WARMUP = 50;
const SIDE_CAP_MS = 40_000;

interface Side {
  name: string;
  url: string;
  /** A motebit (it is sent motebitCall's tool); else an SDK baseline, sent echo. */
  motebit?: boolean;
  /** Headers for request i (the edge: a fresh token; the baseline: none). */
  auth(i: number): Record<string, string>;
  /** Makes requests from..from+count-1's headers, before they are timed (a DPoP side's proofs). */
  ready?(from: number, count: number): Promise<void>;
  /** Its server's CPU so far, ms (the workerd sides). */
  cpu?: () => number | null;
}

interface Result {
  name: string;
  done: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  /** The server's CPU per request (workerd sides only), µs. */
  cpuUs?: number;
}

/** A side as measure() runs it; `cpu` reads its server's CPU so far (ms), when the bench can see it. */
interface Runner {
  name: string;
  one: (i: number) => Promise<void>;
  first?: number;
  ready?: (from: number, count: number) => Promise<void>;
  cpu?: () => number | null;
}

const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

async function post(side: Side, i: number, body: unknown, session?: string): Promise<Response> {
  const headers: Record<string, string> = { ...JSON_HEADERS, ...side.auth(i) };
  if (session) Object.assign(headers, { "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-03-26" });
  const send = () => fetch(side.url, { method: "POST", headers, body: JSON.stringify(body) });
  try {
    return await send();
  } catch (e) {
    // Sides take turns, so a side's pooled keep-alive socket may be closed by its server while idle: the first
    // request to reuse it fails before it is sent. Once more, on a fresh socket.
    if ((e as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw e;
    return send();
  }
}

async function openSession(side: Side, i: number): Promise<string> {
  const init = await post(side, i, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
  });
  if (!init.ok) throw new Error(`${side.name}: initialize HTTP ${init.status} ${await init.text()}`);
  const session = init.headers.get("Mcp-Session-Id")!;
  await init.arrayBuffer();
  const note = await post(side, i + 1, { jsonrpc: "2.0", method: "notifications/initialized" }, session);
  await note.arrayBuffer();
  return session;
}

async function callEcho(side: Side, i: number, session: string): Promise<void> {
  const params = side.motebit ? motebitCall(i) : { name: "echo", arguments: { text: `hi ${i}` } };
  const res = await post(side, i, { jsonrpc: "2.0", id: i, method: "tools/call", params }, session);
  const text = await res.text();
  if (res.status !== 200 || !text.includes(`hi ${i}`)) throw new Error(`${side.name}: HTTP ${res.status} ${text.slice(0, 200)}`);
}

/** The per-request work of one side: tools/call echo in one session (request indices 0 and 1 went to initialize). */
async function prepare(side: Side): Promise<Runner> {
  await side.ready?.(0, 2);
  const session = await openSession(side, 0);
  return { name: side.name, one: (i) => callEcho(side, i, session), first: 2, ready: side.ready?.bind(side), cpu: side.cpu };
}

/** The same call in MCP 2026-07-28: no session, the envelope in _meta and the routing headers on every request. */
function stateless(side: Side): Runner {
  const meta = { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} };
  return {
    name: side.name,
    cpu: side.cpu,
    ready: side.ready?.bind(side),
    one: async (i) => {
      const call = side.motebit ? motebitCall(i) : { name: "echo", arguments: { text: `hi ${i}` } };
      const headers = { ...JSON_HEADERS, ...side.auth(i), "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": call.name };
      const body = { jsonrpc: "2.0", id: i, method: "tools/call", params: { ...call, _meta: meta } };
      const res = await fetch(side.url, { method: "POST", headers, body: JSON.stringify(body) });
      const text = await res.text();
      if (res.status !== 200 || !text.includes(`hi ${i}`)) throw new Error(`${side.name}: HTTP ${res.status} ${text.slice(0, 200)}`);
    },
  };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const ROUNDS = 10;

/**
 * Runs every side N times (after a warm-up), CONCURRENCY loops each, in ROUNDS interleaved rounds: on a shared
 * machine the load drifts, and interleaving spreads that drift over all sides alike instead of favouring one.
 */
async function measure(sides: Runner[]): Promise<Result[]> {
  const next = sides.map((s) => s.first ?? 0);
  const latencies = sides.map(() => [] as number[]);
  const busy = sides.map(() => 0);
  const cpuMs = sides.map(() => 0);
  const deadline = Date.now() + SIDE_CAP_MS * sides.length;
  const batch = async (k: number, count: number, record: boolean) => {
    const end = next[k] + count;
    await sides[k].ready?.(next[k], count);
    const t0 = performance.now();
    const c0 = sides[k].cpu?.() ?? null;
    const worker = async () => {
      while (next[k] < end && Date.now() < deadline) {
        const i = next[k]++;
        const s = performance.now();
        await sides[k].one(i);
        if (record) latencies[k].push(performance.now() - s);
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    if (record) busy[k] += performance.now() - t0;
    if (record && c0 !== null) cpuMs[k] += sides[k].cpu!()! - c0;
  };
  for (let k = 0; k < sides.length; k++) await batch(k, WARMUP, false);
  for (let r = 0; r < ROUNDS; r++) for (let k = 0; k < sides.length; k++) await batch(k, Math.ceil(N / ROUNDS), true);
  return sides.map((s, k) => {
    const l = latencies[k].sort((a, b) => a - b);
    const seconds = busy[k] / 1000;
    const cpuUs = s.cpu?.() == null ? undefined : (cpuMs[k] * 1000) / l.length;
    return { name: s.name, done: l.length, seconds, rps: l.length / seconds, p50: percentile(l, 50), p99: percentile(l, 99), cpuUs };
  });
}

/** ours/theirs in throughput and theirs/ours in p50: above 1.0 ours is faster on both. */
function speedup(label: string, ours: Result, theirs: Result): string {
  const cpu = ours.cpuUs && theirs.cpuUs ? `, workerd cpu per request ${(ours.cpuUs / theirs.cpuUs).toFixed(2)}x theirs` : "";
  return `${label}: throughput ${(ours.rps / theirs.rps).toFixed(2)}x, p50 ${(theirs.p50 / ours.p50).toFixed(2)}x as fast (p99 ${(theirs.p99 / ours.p99).toFixed(2)}x)${cpu}`;
}

/** Each edge OAuth side against createMcpHandler behind workers-oauth-provider (the second of the OAuth sides). */
function againstWop(results: Result[]): void {
  const wop = results[1];
  for (const r of results) if (r !== wop) console.log(speedup(`${r.name}/${wop.name}`, r, wop));
}

function row(r: Result): string {
  const cpu = r.cpuUs === undefined ? "" : `  workerd cpu ${r.cpuUs.toFixed(0).padStart(5)} µs/req`;
  return `${r.name.padEnd(15)} ${String(r.done).padStart(6)} req in ${r.seconds.toFixed(2).padStart(6)} s  ${r.rps.toFixed(0).padStart(6)} req/s  p50 ${r.p50.toFixed(2).padStart(7)} ms  p99 ${r.p99.toFixed(2).padStart(7)} ms${cpu}`;
}

async function main() {
  const started = Date.now();
  const env = {
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }),
    // High enough never to refuse, so the bucket's work is still measured.
    MOTEBIT_RATE_LIMIT: "1000000",
  };
  // The edge with the workerd baseline beside it; wrangler's per-request dev log is not the edge's work.
  const edge = await startLocalEdge(env, { args: ["-c", "bench/edge/wrangler.bench.toml", "--log-level", "warn"] });
  const nodeApp = await startNodeApp(env);
  const baseline = await startBaseline();
  // --otel: the same edge with telemetry on, exporting to a sink here that reads each export and answers 200.
  const sink = OTEL ? createServer((req, res) => req.resume().on("end", () => res.end())) : null;
  if (sink !== null) await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const traced = sink === null ? null : await startLocalEdge({ ...env, OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` }, { args: ["-c", "bench/edge/wrangler.bench.toml", "--log-level", "warn"] });
  try {
    // Tokens are minted up front (each one used once) so both sides measure the server, not the client's signing.
    const signer = await createSigner(keys.known_caller.seed_hex);
    const total = (traced === null ? 4 : 5) * (N + WARMUP + 2);
    const m0 = performance.now();
    const tokens = await Promise.all(
      Array.from({ length: total }, () =>
        mintBearerToken(
          { mid: keys.known_caller.sovereign_motebit_id, did: "bench", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, ttlMs: 4 * 60_000 },
          signer,
        ),
      ),
    );
    const mintMs = (performance.now() - m0) / total;

    const half = N + WARMUP + 2; // the second half of the tokens, each still used once
    const cpu = () => workerdCpuMs(edge.pgid);
    // OAuth access tokens are bearer tokens used for every request, as a host uses them. Ours lives 5 minutes
    // (ACCESS_TOKEN_TTL_MS): enough for N up to a few thousand; past it the edge's side fails with a 401 and says so.
    const ours = await edgeAccessToken(edge.url, keys.server.seed_hex);
    const theirs = await providerAccessToken(edge.url, "/wop");
    const bound = await edgeDpopAccessToken(edge.url, keys.server.seed_hex);
    // The OAuth sides, made once for the session form and once for 2026-07-28: a DPoP side's proofs are each sent once.
    const oauthSides = (): Side[] => [
      { name: "edge oauth", url: `${edge.url}/mcp`, motebit: true, auth: () => ({ Authorization: `Bearer ${ours}` }), cpu },
      { name: "wop", url: `${edge.url}/wop/mcp`, auth: () => ({ Authorization: `Bearer ${theirs}` }), cpu },
      { name: "edge dpop", url: `${edge.url}/mcp`, motebit: true, ...dpopProofs(bound, `${edge.url}/mcp`), cpu },
    ];
    const [edgeResult, nodeResult, baseResult, workerdBase, floor, edge26, node26, workerdBase26, agent, ...rest] = await measure([
      await prepare({ name: "edge", url: `${edge.url}/mcp`, motebit: true, auth: (i) => ({ Authorization: `Bearer motebit:${tokens[i]}` }), cpu }),
      await prepare({ name: "node app", url: nodeApp.url, motebit: true, auth: (i) => ({ Authorization: `Bearer motebit:${tokens[half + i]}` }) }),
      await prepare({ name: "baseline", url: baseline.url, auth: () => ({}) }),
      await prepare({ name: "wd base", url: `${edge.url}/baseline/mcp`, auth: () => ({}), cpu }),
      {
        // The floor under the edge figures: GET /health goes through wrangler dev's proxy and the Worker only.
        name: "edge floor",
        cpu,
        one: async () => {
          const res = await fetch(`${edge.url}/health`);
          if (res.status !== 200) throw new Error(`/health HTTP ${res.status}`);
          await res.arrayBuffer();
        },
      },
      stateless({ name: "edge 2026", url: `${edge.url}/mcp`, motebit: true, auth: (i) => ({ Authorization: `Bearer motebit:${tokens[2 * half + i]}` }), cpu }),
      stateless({ name: "node 2026", url: nodeApp.url, motebit: true, auth: (i) => ({ Authorization: `Bearer motebit:${tokens[3 * half + i]}` }) }),
      stateless({ name: "wd b 2026", url: `${edge.url}/baseline/mcp`, auth: () => ({}), cpu }),
      await prepare({ name: "McpAgent", url: `${edge.url}/agent/mcp`, auth: () => ({}), cpu }),
      ...(await Promise.all(oauthSides().map(prepare))),
      ...oauthSides().map((s) => stateless({ ...s, name: `${s.name} 2026` })),
      ...(traced === null
        ? []
        : [await prepare({ name: "edge+otel", url: `${traced.url}/mcp`, motebit: true, auth: (i) => ({ Authorization: `Bearer motebit:${tokens[4 * half + i]}` }), cpu: () => workerdCpuMs(traced.pgid) })]),
    ]);
    // The OpenTelemetry side, when there, ran last.
    const edgeOtel = traced === null ? undefined : rest.pop();
    const oauth = rest;
    const oauthSession = oauth.slice(0, oauth.length / 2);
    const oauth26 = oauth.slice(oauth.length / 2);

    console.log(`tools/call ${BENCH_TOOL} (the baselines: echo), ${N} requests per side in ${ROUNDS} interleaved rounds, concurrency ${CONCURRENCY} (+${WARMUP} warm-up)`);
    console.log(row(edgeResult));
    console.log(row(nodeResult));
    console.log(row(baseResult));
    console.log(`${row(workerdBase)}   (createMcpHandler + SDK v2 in the same workerd)`);
    console.log(`${row(floor)}   (GET /health: dev proxy + Worker, no auth, no object)`);
    console.log(
      `edge/baseline: throughput ${(edgeResult.rps / baseResult.rps).toFixed(2)}x, ` +
        `p50 ${(edgeResult.p50 / baseResult.p50).toFixed(2)}x, p99 ${(edgeResult.p99 / baseResult.p99).toFixed(2)}x`,
    );
    console.log(
      `edge/workerd baseline (same workerd, same client): throughput ${(edgeResult.rps / workerdBase.rps).toFixed(2)}x, ` +
        `p50 ${(edgeResult.p50 / workerdBase.p50).toFixed(2)}x, p99 ${(edgeResult.p99 / workerdBase.p99).toFixed(2)}x`,
    );
    console.log(
      `node app/baseline (same runtime): throughput ${(nodeResult.rps / baseResult.rps).toFixed(2)}x, ` +
        `p50 ${(nodeResult.p50 / baseResult.p50).toFixed(2)}x, p99 ${(nodeResult.p99 / baseResult.p99).toFixed(2)}x`,
    );
    console.log(`\nthe same call in MCP 2026-07-28 (stateless: no session, _meta + routing headers)`);
    console.log(row(edge26));
    console.log(row(node26));
    console.log(`${row(workerdBase26)}   (createMcpHandler + SDK v2 in the same workerd)`);
    console.log(
      `edge 2026/workerd baseline 2026: throughput ${(edge26.rps / workerdBase26.rps).toFixed(2)}x, p50 ${(edge26.p50 / workerdBase26.p50).toFixed(2)}x; ` +
        `node app 2026/baseline (2025 session, SDK 1.32): ${(node26.rps / baseResult.rps).toFixed(2)}x`,
    );
    console.log(`\nMcpAgent (a Durable Object per session, SDK v1, no auth) in the same workerd`);
    console.log(row(agent));
    console.log(speedup("edge/McpAgent", edgeResult, agent));
    console.log(`\nOAuth access tokens (the same token on every request): the edge, createMcpHandler behind workers-oauth-provider, the edge with DPoP`);
    for (const r of oauthSession) console.log(row(r));
    againstWop(oauthSession);
    console.log(`in MCP 2026-07-28`);
    for (const r of oauth26) console.log(row(r));
    againstWop(oauth26);
    if (edgeOtel !== undefined) {
      console.log(`\nOpenTelemetry on at the edge (every span sampled, OTLP protobuf posted in waitUntil)`);
      console.log(row(edgeOtel));
      console.log(
        `edge+otel − edge: ${(edgeOtel.cpuUs! - edgeResult.cpuUs!).toFixed(0)} µs of workerd cpu per request; ` +
          `throughput ${(edgeOtel.rps / edgeResult.rps).toFixed(2)}x, p50 ${(edgeOtel.p50 / edgeResult.p50).toFixed(2)}x`,
      );
    }
    console.log(`client-side token minting: ${(mintMs * 1000).toFixed(0)} µs per token (not in the figures above)`);
    console.log(`total bench time ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await baseline.close();
    await nodeApp.close();
    await edge.stop();
    await traced?.stop();
    sink?.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
