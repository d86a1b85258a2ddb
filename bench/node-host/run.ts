// motebit-local's HTTP mode against two baselines, the same tools/call echo over one session, in this Node process:
//   signed:   a fresh signed motebit token on every request (Ed25519 check, jti consumed once, rate limit, session, gate)
//   static:   the static bearer token (no signature check, no jti)
//   sdk:      a bare MCP SDK 1.32 server (McpServer + StreamableHTTPServerTransport, JSON answers, no auth)
//   canned:   node:http answering every POST with one canned JSON-RPC result: the floor of HTTP + the client here
// The servers run in one child process (servers.ts), the client here. Sides take turns in interleaved rounds, so the
// neighbours' load drifts over all of them alike. Each side reports requests/s, p50 latency, and the CPU µs per
// request of the server process (all its threads: the signature check on libuv's pool counts) and of this client.
// With --before=<dir>, a checkout of the code before a change (its own node_modules, or a link to these), that
// checkout's motebit-local takes its turns too, signed and static, and the ratios after/before are printed.
// MOTEBIT_BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the servers' process there (sampled in wall time: on a
// loaded machine a frame that wakes another thread is charged for the time it waits to run again).
// MOTEBIT_BENCH_TOOL=motebit_task: the motebit sides call motebit_task over echo instead (bench/tool-call.ts).
// --otel: a third motebit-local side, static+otel, with OpenTelemetry on (every span sampled, batched to an OTLP/HTTP
// protobuf sink in this process, which drains and drops), and the server CPU it adds per request over static's.
//   npx tsx bench/node-host/run.ts [N=2000] [concurrency=8] [rounds=10] [--before=<dir>] [--otel]
import { fork, type ChildProcess } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { loadavg } from "node:os";
import { resolve } from "node:path";
import { createSigner, mintBearerToken } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { BENCH_TOOL, motebitCall } from "../tool-call.js";

const positional = process.argv.slice(2).filter((a) => !a.startsWith("--"));
const BEFORE = process.argv.find((a) => a.startsWith("--before="))?.slice("--before=".length) ?? null;
const OTEL = process.argv.includes("--otel");
const N = Number(positional[0] ?? 2000);
const CONCURRENCY = Number(positional[1] ?? 8);
const ROUNDS = Number(positional[2] ?? 10);
const WARMUP = 200;
const STATIC_TOKEN = "bench-static-token-0123456789abcdef";
const JSON_HEADERS = { "Content-Type": "application/json", Accept: "application/json, text/event-stream" };

interface Side {
  name: string;
  one(i: number): Promise<void>;
}

interface Figures {
  rps: number;
  p50: number;
  /** Server process CPU per request. */
  cpuUs: number;
  /** This (client) process's CPU per request. */
  clientUs: number;
}

type Cpu = { user: number; system: number };

/** The server process's CPU so far, asked over IPC. */
function serverCpu(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve((m as { cpu: Cpu }).cpu.user + (m as { cpu: Cpu }).cpu.system));
    child.send("cpu");
  });
}

async function post(url: string, headers: Record<string, string>, body: unknown): Promise<Response> {
  const send = () => fetch(url, { method: "POST", headers: { ...JSON_HEADERS, ...headers }, body: JSON.stringify(body) });
  try {
    return await send();
  } catch (e) {
    // A pooled keep-alive socket the server closed while another side had its turn fails once, before sending.
    if ((e as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw e;
    return send();
  }
}

/** An MCP side: initialize + initialized once, then tools/call in that session with `auth(i)`'s headers (echo, or `call`'s). */
async function mcpSide(name: string, url: string, auth: (i: number) => Record<string, string>, call = (i: number): { name: string; arguments: Record<string, unknown> } => ({ name: "echo", arguments: { text: `hi ${i}` } })): Promise<Side> {
  const init = await post(url, auth(-1), {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } },
  });
  if (!init.ok) throw new Error(`${name}: initialize HTTP ${init.status} ${await init.text()}`);
  const session = { "Mcp-Session-Id": init.headers.get("Mcp-Session-Id")!, "MCP-Protocol-Version": "2025-03-26" };
  await init.arrayBuffer();
  await (await post(url, { ...auth(-2), ...session }, { jsonrpc: "2.0", method: "notifications/initialized" })).arrayBuffer();
  return {
    name,
    one: async (i) => {
      const res = await post(url, { ...auth(i), ...session }, { jsonrpc: "2.0", id: i, method: "tools/call", params: call(i) });
      const text = await res.text();
      if (res.status !== 200 || !text.includes(`hi ${i}`)) throw new Error(`${name}: HTTP ${res.status} ${text.slice(0, 200)}`);
    },
  };
}

/** `count` calls of one side, CONCURRENCY loops: wall ms, server and client CPU µs, and each call's latency. */
async function batch(child: ChildProcess, side: Side, first: number, count: number): Promise<{ ms: number; cpuUs: number; clientUs: number; latencies: number[] }> {
  let next = first;
  const end = first + count;
  const latencies: number[] = [];
  const server0 = await serverCpu(child);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const worker = async () => {
    while (next < end) {
      const i = next++;
      const s = performance.now();
      await side.one(i);
      latencies.push(performance.now() - s);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return { ms, cpuUs: (await serverCpu(child)) - server0, clientUs: cpu.user + cpu.system, latencies };
}

async function measure(child: ChildProcess, sides: Side[]): Promise<Figures[]> {
  const per = Math.ceil(N / ROUNDS);
  const next = sides.map(() => 0);
  const acc = sides.map(() => ({ ms: 0, cpuUs: 0, clientUs: 0, latencies: [] as number[] }));
  for (let k = 0; k < sides.length; k++) next[k] += (await batch(child, sides[k], next[k], WARMUP)).latencies.length;
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const b = await batch(child, sides[k], next[k], per);
      next[k] += per;
      acc[k].ms += b.ms;
      acc[k].cpuUs += b.cpuUs;
      acc[k].clientUs += b.clientUs;
      acc[k].latencies.push(...b.latencies);
    }
  }
  return acc.map((a) => {
    const l = a.latencies.sort((x, y) => x - y);
    return { rps: (l.length * 1000) / a.ms, p50: l[Math.floor(l.length / 2)], cpuUs: a.cpuUs / l.length, clientUs: a.clientUs / l.length };
  });
}

/** MOTEBIT_BENCH_CPU_PROF=<dir>: the servers' process writes a V8 CPU profile there when it ends. */
function cpuProfile(): string[] {
  const dir = process.env.MOTEBIT_BENCH_CPU_PROF;
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${resolve(dir)}`] : [];
}

async function main() {
  const env = {
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_AUTH_TOKEN: STATIC_TOKEN,
    MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }),
    // High enough never to refuse, so the bucket's work is still measured.
    MOTEBIT_RATE_LIMIT: "1000000",
  };
  const args = [JSON.stringify(env), ...(BEFORE === null ? [] : [resolve(BEFORE)])];
  // The OTLP sink: reads each export and answers 200 (its CPU is this process's, not the server's).
  const sink = OTEL ? createServer((req, res) => req.resume().on("end", () => res.end())) : null;
  if (sink !== null) await new Promise<void>((r) => sink.listen(0, "127.0.0.1", r));
  const otlpEnv = sink === null ? {} : { MOTEBIT_BENCH_OTLP_ENDPOINT: `http://127.0.0.1:${(sink.address() as AddressInfo).port}` };
  const child = fork(new URL("./servers.ts", import.meta.url).pathname, args, { execArgv: ["--import", "tsx", ...cpuProfile()], env: { ...process.env, ...otlpEnv } });
  type Urls = { nodeApp: string; sdk: string; canned: string; before: string | null; traced: string | null };
  const urls = await new Promise<Urls>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { urls: Urls }).urls));
    child.once("exit", (code) => reject(new Error(`the servers' process exited (${code}) before listening`)));
  });
  const nodeApp = { url: urls.nodeApp };
  const sdk = { url: urls.sdk };
  const canned = { url: urls.canned };
  try {
    // Minted up front, each used once, so the figures are the server's work and not the client's signing.
    const signer = await createSigner(keys.known_caller.seed_hex);
    // The signed sides share the tokens: each is sent once, whichever server gets it.
    const signedSides = BEFORE === null ? 1 : 2;
    const tokens = await Promise.all(
      Array.from({ length: signedSides * (N + WARMUP + ROUNDS + 2) }, () =>
        mintBearerToken(
          { mid: keys.known_caller.sovereign_motebit_id, did: "bench", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, ttlMs: 4 * 60_000 },
          signer,
        ),
      ),
    );
    let nextToken = 0;
    const signed = () => ({ Authorization: `Bearer motebit:${tokens[nextToken++]}` });
    const staticToken = () => ({ Authorization: `Bearer ${STATIC_TOKEN}` });
    const cannedSide: Side = {
      name: "canned",
      one: async () => {
        const res = await post(canned.url, {}, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
        if (res.status !== 200 || !(await res.text()).includes('"canned"')) throw new Error("canned: bad answer");
      },
    };
    const sides = [
      await mcpSide("signed", nodeApp.url, signed, motebitCall),
      await mcpSide("static", nodeApp.url, staticToken, motebitCall),
      await mcpSide("sdk", sdk.url, () => ({})),
      cannedSide,
      ...(urls.before === null ? [] : [await mcpSide("signed@before", urls.before, signed, motebitCall), await mcpSide("static@before", urls.before, staticToken, motebitCall)]),
      ...(urls.traced === null ? [] : [await mcpSide("static+otel", urls.traced, staticToken, motebitCall)]),
    ];
    const load = loadavg().map((x) => x.toFixed(2)).join(" ");
    const figures = await measure(child, sides);
    const [s, st, b, c] = figures;
    const [sb, stb] = urls.before === null ? [] : figures.slice(4, 6);
    const traced = urls.traced === null ? undefined : figures[figures.length - 1];
    const line = (name: string, f: Figures) =>
      `  ${name.padEnd(14)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   server cpu ${f.cpuUs.toFixed(0).padStart(5)} µs/req   client cpu ${f.clientUs.toFixed(0).padStart(5)} µs/req`;
    console.log(`tools/call ${BENCH_TOOL} over HTTP (the baselines: echo), motebit-local vs baselines: ${N} requests per side in ${ROUNDS} interleaved rounds, concurrency ${CONCURRENCY} (Node ${process.version}; load ${load} at start, ${loadavg().map((x) => x.toFixed(2)).join(" ")} at end)`);
    console.log(line("signed", s));
    console.log(line("static", st));
    console.log(line("sdk", b));
    console.log(line("canned", c));
    if (sb !== undefined) {
      console.log(line("signed@before", sb));
      console.log(line("static@before", stb));
    }
    const ratio = (x: Figures, y: Figures) => `throughput ${(x.rps / y.rps).toFixed(2)}x, server cpu/req ${(x.cpuUs / y.cpuUs).toFixed(2)}x`;
    console.log(`  signed/canned: ${ratio(s, c)}   (goal: throughput ≥ 0.8x)`);
    console.log(`  signed/sdk:    ${ratio(s, b)}   (goal: throughput ≥ 1.15x)`);
    const extra = (x: Figures, y: Figures) => `${x.cpuUs - y.cpuUs >= 0 ? "+" : ""}${(x.cpuUs - y.cpuUs).toFixed(0)} µs`;
    console.log(`  signed − static: ${extra(s, st)} of server cpu per request (goal: at most +100 µs, one Ed25519 check and one jti row)`);
    console.log(`  static/canned: ${ratio(st, c)}`);
    console.log(`  static/sdk:    ${ratio(st, b)}`);
    if (sb !== undefined) {
      console.log(`  signed/signed@before: ${ratio(s, sb)}`);
      console.log(`  static/static@before: ${ratio(st, stb)}   signed@before − static@before: ${extra(sb, stb)}`);
      console.log(`  signed@before/canned: ${ratio(sb, c)}   signed@before/sdk: ${ratio(sb, b)}`);
    }
    if (traced !== undefined) {
      console.log(line("static+otel", traced));
      console.log(`  static+otel − static: ${extra(traced, st)} of server cpu per request (OpenTelemetry on, every span sampled and exported)   static+otel/static: ${ratio(traced, st)}`);
    }
  } finally {
    child.send("stop");
    await new Promise((r) => child.once("exit", r));
    sink?.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
