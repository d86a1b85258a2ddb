// What the session layer adds to one call: McpEndpoint.handle (admission, the session engine, the JSON answer) and
// SessionEngine.receive alone, against the baseline of calling the same message handler directly. The handler
// answers at once, so the figures are the layer's own cost. Process CPU time per call, in alternating rounds, the
// median round of each kept: on a shared, loaded machine wall-clock mostly measures the neighbours.
// Run: npx tsx bench/session-engine/run.ts [calls per round=2000] [rounds=10]   (bounded: a few seconds)
import type { MessageHandler } from "../../src/mcp/engine/message-handler.js";
import type { JsonRpcRequest } from "../../src/mcp/jsonrpc.js";
import { newSessionState } from "../../src/mcp/session.js";
import type { StatelessEnvelope } from "../../src/mcp/stateless/revision.js";
import { systemClock } from "../../src/ports.js";
import type { PeerPrincipal } from "../../src/callers/signed-token.js";
import { McpEndpoint } from "../../src/server/mcp-endpoint.js";
import type { McpCall } from "../../src/server/mcp-request.js";
import { sessionEngineFor } from "../../src/mcp/engine/session-engine-for-host.js";
import { memorySql } from "../../test/node/helpers/sqlite.js";

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 10);

const principal: PeerPrincipal = { kind: "peer", callerId: "static", via: "static_token", trust: "verified" };
const rpc: MessageHandler["handleClassified"] = async (m) => {
  const id = (m.message as { id?: number }).id;
  return id === undefined ? null : { jsonrpc: "2.0", id, result: { content: [{ type: "text", text: "echo" }] } };
};
const call = (i: number) => ({ jsonrpc: "2.0", id: i, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } });
const envelope: StatelessEnvelope = { protocolVersion: "2026-07-28", clientCapabilities: {}, logLevel: null };
const config = { rateLimitPerMinute: 0, sessionTtlMs: 30 * 60_000, maxSessionsPerCaller: 32 };
const post = (message: unknown, sessionId: string | null, stateless?: StatelessEnvelope): McpCall => ({
  principal,
  jti: null,
  sessionId,
  method: "POST",
  mode: "json",
  sse: true,
  kind: "request",
  message: message as JsonRpcRequest,
  ...(stateless && { stateless }),
});

async function cpuPerCall(one: (i: number) => Promise<unknown>): Promise<number> {
  const t = process.cpuUsage();
  for (let i = 1; i <= N; i++) await one(i);
  const u = process.cpuUsage(t);
  return (u.user + u.system) / N;
}

async function main() {
  const endpoint = new McpEndpoint({ sql: memorySql(), clock: systemClock, config, motebit: { handleClassified: rpc } });
  const init = await endpoint.handle(post({ jsonrpc: "2.0", id: 0, method: "initialize", params: {} }, null));
  const session = init.headers.get("Mcp-Session-Id");
  const engine = sessionEngineFor(memorySql(), systemClock, { handleClassified: rpc }, { host: "peer" });
  const conduit = { scope: "bench", session: newSessionState(), send: () => true, cannotAsk: null };
  const sides: [string, (i: number) => Promise<unknown>][] = [
    ["handler alone (baseline)", (i) => rpc({ kind: "request", message: call(i) as JsonRpcRequest }, { principal, signal: new AbortController().signal, channel: { notify() {}, request: async () => null }, session: newSessionState() })],
    ["engine.receive, session", (i) => engine.receive({ principal, kind: "request", message: call(i), envelope: null }, conduit)],
    ["engine.receive, 2026-07-28", (i) => engine.receive({ principal, kind: "request", message: call(i), envelope }, conduit)],
    ["endpoint, session", async (i) => (await endpoint.handle(post(call(i), session))).text()],
    ["endpoint, 2026-07-28", async (i) => (await endpoint.handle(post(call(i), null, envelope))).text()],
  ];
  const rounds = sides.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS; r++) for (const [k, [, one]] of sides.entries()) rounds[k].push(await cpuPerCall(one));
  const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)];
  const base = median(rounds[0]);
  console.log(`session layer cost per call: ${N} calls per round, ${ROUNDS} alternating rounds, median round, process CPU`);
  for (const [k, [name]] of sides.entries()) {
    const m = median(rounds[k]);
    console.log(`${name.padEnd(28)} ${m.toFixed(1).padStart(6)} µs${k === 0 ? "" : `   +${(m - base).toFixed(1)} µs over the baseline (${(m / base).toFixed(2)}x)`}`);
  }
}

void main();
