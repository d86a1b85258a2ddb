// motebit-local's HTTP mode against two baselines, the same tools/call echo over one session, in this Node process:
//   signed:   a fresh signed motebit token on every request (Ed25519 check, jti consumed once, rate limit, session, gate)
//   static:   the static bearer token (no signature check, no jti)
//   sdk:      a bare MCP SDK 1.32 server (McpServer + StreamableHTTPServerTransport, JSON answers, no auth)
//   canned:   node:http answering every POST with one canned JSON-RPC result: the floor of HTTP + the client here
// Sides take turns in interleaved rounds, so the neighbours' load drifts over all of them alike. Each side reports
// requests/s, p50 latency and process CPU µs per request (client and server together: they share the process).
//   npx tsx bench/node-host/run.ts [N=2000] [concurrency=8] [rounds=10]
import { createServer, type Server } from "node:http";
import { loadavg } from "node:os";
import { createSigner, mintBearerToken } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { freePort } from "../../test/node/edge/local-edge.js";
import { startBaseline, startNodeApp } from "../edge/node-servers.js";

const N = Number(process.argv[2] ?? 2000);
const CONCURRENCY = Number(process.argv[3] ?? 8);
const ROUNDS = Number(process.argv[4] ?? 10);
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
  cpuUs: number;
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

/** An MCP side: initialize + initialized once, then tools/call echo in that session with `auth(i)`'s headers. */
async function mcpSide(name: string, url: string, auth: (i: number) => Record<string, string>): Promise<Side> {
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
      const res = await post(url, { ...auth(i), ...session }, { jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { text: `hi ${i}` } } });
      const text = await res.text();
      if (res.status !== 200 || !text.includes(`hi ${i}`)) throw new Error(`${name}: HTTP ${res.status} ${text.slice(0, 200)}`);
    },
  };
}

/** node:http reading the body and answering one fixed JSON-RPC result: no parsing, no MCP, no auth. */
async function startCanned(): Promise<{ url: string; close(): Promise<void> }> {
  const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { content: [{ type: "text", text: "canned" }] } });
  const server: Server = createServer((req, res) => {
    req.on("data", () => {});
    req.on("end", () => {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(answer);
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** `count` calls of one side, CONCURRENCY loops: wall ms, CPU µs and each call's latency. */
async function batch(side: Side, first: number, count: number): Promise<{ ms: number; cpuUs: number; latencies: number[] }> {
  let next = first;
  const end = first + count;
  const latencies: number[] = [];
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
  const cpu = process.cpuUsage(cpu0);
  return { ms: performance.now() - t0, cpuUs: cpu.user + cpu.system, latencies };
}

async function measure(sides: Side[]): Promise<Figures[]> {
  const per = Math.ceil(N / ROUNDS);
  const next = sides.map(() => 0);
  const acc = sides.map(() => ({ ms: 0, cpuUs: 0, latencies: [] as number[] }));
  for (let k = 0; k < sides.length; k++) next[k] += (await batch(sides[k], next[k], WARMUP)).latencies.length;
  for (let r = 0; r < ROUNDS; r++) {
    for (let k = 0; k < sides.length; k++) {
      const b = await batch(sides[k], next[k], per);
      next[k] += per;
      acc[k].ms += b.ms;
      acc[k].cpuUs += b.cpuUs;
      acc[k].latencies.push(...b.latencies);
    }
  }
  return acc.map((a) => {
    const l = a.latencies.sort((x, y) => x - y);
    return { rps: (l.length * 1000) / a.ms, p50: l[Math.floor(l.length / 2)], cpuUs: a.cpuUs / l.length };
  });
}

async function main() {
  const env = {
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_AUTH_TOKEN: STATIC_TOKEN,
    MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }),
    // High enough never to refuse, so the bucket's work is still measured.
    MOTEBIT_RATE_LIMIT: "1000000",
  };
  const nodeApp = await startNodeApp(env);
  const sdk = await startBaseline();
  const canned = await startCanned();
  try {
    // Minted up front, each used once, so the figures are the server's work and not the client's signing.
    const signer = await createSigner(keys.known_caller.seed_hex);
    const tokens = await Promise.all(
      Array.from({ length: N + WARMUP + ROUNDS + 2 }, () =>
        mintBearerToken(
          { mid: keys.known_caller.sovereign_motebit_id, did: "bench", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, ttlMs: 4 * 60_000 },
          signer,
        ),
      ),
    );
    const signed = (i: number) => ({ Authorization: `Bearer motebit:${tokens[i + 2]}` });
    const cannedSide: Side = {
      name: "canned",
      one: async () => {
        const res = await post(canned.url, {}, { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
        if (res.status !== 200 || !(await res.text()).includes('"canned"')) throw new Error("canned: bad answer");
      },
    };
    const sides = [
      await mcpSide("signed", nodeApp.url, signed),
      await mcpSide("static", nodeApp.url, () => ({ Authorization: `Bearer ${STATIC_TOKEN}` })),
      await mcpSide("sdk", sdk.url, () => ({})),
      cannedSide,
    ];
    const load = loadavg().map((x) => x.toFixed(2)).join(" ");
    const [s, st, b, c] = await measure(sides);
    const line = (name: string, f: Figures) =>
      `  ${name.padEnd(8)} ${f.rps.toFixed(0).padStart(6)} req/s   p50 ${f.p50.toFixed(2).padStart(6)} ms   cpu ${f.cpuUs.toFixed(0).padStart(5)} µs/req`;
    console.log(`tools/call echo over HTTP, motebit-local vs baselines: ${N} requests per side in ${ROUNDS} interleaved rounds, concurrency ${CONCURRENCY} (Node ${process.version}; load ${load} at start, ${loadavg().map((x) => x.toFixed(2)).join(" ")} at end)`);
    console.log(line("signed", s));
    console.log(line("static", st));
    console.log(line("sdk", b));
    console.log(line("canned", c));
    const ratio = (x: Figures, y: Figures) => `throughput ${(x.rps / y.rps).toFixed(2)}x, cpu/req ${(x.cpuUs / y.cpuUs).toFixed(2)}x`;
    console.log(`  signed/canned: ${ratio(s, c)}   (goal: throughput ≥ 0.8x)`);
    console.log(`  signed/sdk:    ${ratio(s, b)}   (goal: throughput ≥ 1.15x)`);
    console.log(`  static/canned: ${ratio(st, c)}`);
    console.log(`  static/sdk:    ${ratio(st, b)}`);
  } finally {
    await canned.close();
    await sdk.close();
    await nodeApp.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exitCode = 1;
});
