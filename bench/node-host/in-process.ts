// What a signed token costs the Node host with the sockets taken out: the same tools/call echo as bench/node-host,
// sent to the edge's app (src/server/app.ts over motebit-local's in-process backend) with app.fetch in this process.
// Three sides in alternating rounds, process CPU per request: the static token (the baseline), a fresh signed token
// with motebit-local's node:crypto check (synchronous, as motebit-local checks it with no other request in flight), and a fresh signed token whose signature check is a no-op (everything else
// the signed path does: parsing, claims, the jti row). Over HTTP the signed side's figure also carries how its
// requests arrive (see docs/benchmarks.md); here it is the work alone.
// Run: npx tsx bench/node-host/in-process.ts [N=3000] [rounds=5]
import { loadavg } from "node:os";
import { nodeVerifySignature } from "../../local-stdio/src/serve/node-verify.js";
import { systemClock } from "../../src/ports.js";
import { createSigner, mintBearerToken, type VerifySignature } from "../../src/protocol/index.js";
import { InProcessBackend } from "../../src/server/in-process-backend.js";
import { createApp } from "../../src/server/app.js";
import keys from "../../test/fixtures/edge/keys.json";
import { benchMotebit } from "../edge/node-servers.js";

const N = Number(process.argv[2] ?? 3000);
const ROUNDS = Number(process.argv[3] ?? 5);
const WARMUP = 1000;
const STATIC_TOKEN = "bench-static-token-0123456789abcdef";
const VERSION = "2025-11-25";
const env = {
  MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
  MOTEBIT_AUTH_TOKEN: STATIC_TOKEN,
  MOTEBIT_KNOWN_CALLERS: JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }),
  MOTEBIT_RATE_LIMIT: "1000000",
};

/** motebit-local's HTTP app over its own in-memory SQLite, checking signatures with `verify`. */
async function app(verify: VerifySignature): Promise<(req: Request) => Promise<Response>> {
  const { sql, config, motebit } = await benchMotebit(env);
  const backend = new InProcessBackend({ config, sql, clock: systemClock, motebit, verify });
  const hono = createApp({ backend });
  return async (req) => hono.fetch(req);
}

// Minted up front and each sent once, so the figures are the server's work and not the signing.
const caller = await createSigner(keys.known_caller.seed_hex);
const tokens = await Promise.all(
  Array.from({ length: 2 * (WARMUP + ROUNDS * N) + 8 }, () =>
    mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "bench", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, ttlMs: 4 * 60_000 }, caller),
  ),
);
let next = 0;
const signed = () => `Bearer motebit:${tokens[next++]}`;
const staticToken = () => `Bearer ${STATIC_TOKEN}`;

function request(auth: string, body: unknown, session: string | null): Request {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: auth };
  if (session !== null) Object.assign(headers, { "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION });
  return new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(body) });
}

/** A side: a session opened with its own credential, then one tools/call echo per call. */
async function side(fetch: (req: Request) => Promise<Response>, auth: () => string): Promise<() => Promise<void>> {
  const init = await fetch(request(auth(), { jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1.0.0" } } }, null));
  const session = init.headers.get("Mcp-Session-Id");
  if (init.status !== 200 || session === null) throw new Error(`initialize: HTTP ${init.status} ${await init.text()}`);
  await init.arrayBuffer();
  await (await fetch(request(auth(), { jsonrpc: "2.0", method: "notifications/initialized" }, session))).arrayBuffer();
  const call = { jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } };
  return async () => {
    const res = await fetch(request(auth(), call, session));
    const text = await res.text();
    if (res.status !== 200 || !text.includes('"text":"hi')) throw new Error(`tools/call: HTTP ${res.status} ${text}`);
  };
}

const sides = [
  { label: "static token (baseline)", one: await side(await app(nodeVerifySignature()), staticToken) },
  { label: "signed token, node:crypto check", one: await side(await app(nodeVerifySignature()), signed) },
  { label: "signed token, no-op check", one: await side(await app(async () => true), signed) },
];

async function cpuPerCall(one: () => Promise<void>, n: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await one();
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

for (const s of sides) await cpuPerCall(s.one, WARMUP);
const rounds: number[][] = sides.map(() => []);
for (let r = 0; r < ROUNDS; r++) for (const [k, s] of sides.entries()) rounds[k].push(await cpuPerCall(s.one, N));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const [base, real, noop] = rounds.map(median);
console.log(`tools/call echo through app.fetch in process, ${N} per side in ${ROUNDS} alternating rounds (median; Node ${process.version}, load ${loadavg().map((x) => x.toFixed(2)).join(" ")})`);
sides.forEach((s, k) => console.log(`  ${s.label.padEnd(34)} cpu ${median(rounds[k]).toFixed(0).padStart(5)} µs/request   (rounds: ${rounds[k].map((x) => x.toFixed(0)).join(", ")})`));
console.log(`  signed − static: +${(real - base).toFixed(0)} µs per request (goal: at most +100 µs); of it the signature check +${(real - noop).toFixed(0)} µs, the rest of the signed path +${(noop - base).toFixed(0)} µs`);
