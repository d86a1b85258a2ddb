// What telemetry costs the Node host per tools/call, sockets taken out: the edge's app over motebit-local's
// in-process backend (app.fetch in this process), one request at a time, process CPU per request, in alternating
// rounds. Off: no TelemetryPort (the default: no exporter configured). On: the official SDK with in-memory exporters
// (a BatchSpanProcessor, as an OTLP setup would use, and a periodic metric reader), so the figure is the spans' and
// instruments' own work without a network. MOTEBIT_BENCH_TOOL=motebit_task calls motebit_task over echo instead.
// Run: npx tsx bench/node-host/telemetry.ts [N=2000] [rounds=6]
import { loadavg } from "node:os";
import { BatchSpanProcessor, InMemorySpanExporter, TracerProvider } from "@opentelemetry/sdk-trace";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import { systemClock } from "../../src/ports.js";
import { InProcessBackend } from "../../src/server/in-process-backend.js";
import { createApp } from "../../src/server/app.js";
import type { TelemetryPort } from "../../src/telemetry/port.js";
import keys from "../../test/fixtures/edge/keys.json";
import { benchMotebit } from "../edge/node-servers.js";
import { BENCH_TOOL, motebitCall } from "../tool-call.js";

const N = Number(process.argv[2] ?? 2000);
const ROUNDS = Number(process.argv[3] ?? 6);
const WARMUP = 500;
const STATIC_TOKEN = "bench-static-token-0123456789abcdef";
const VERSION = "2025-11-25";
const env = { MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: STATIC_TOKEN, MOTEBIT_RATE_LIMIT: "1000000" };

const spans = new InMemorySpanExporter();
const tracing = new TracerProvider({ spanProcessors: [new BatchSpanProcessor({ exporter: spans })] });
const metering = new MeterProvider({
  readers: [new PeriodicExportingMetricReader({ exporter: new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE), exportIntervalMillis: 10_000 })],
});
const port: TelemetryPort = { tracer: tracing.getTracer("bench"), meter: metering.getMeter("bench"), captureContent: false };

function request(body: unknown, session: string | null): Request {
  const headers: Record<string, string> = { "Content-Type": "application/json", Accept: "application/json, text/event-stream", Authorization: `Bearer ${STATIC_TOKEN}` };
  if (session !== null) Object.assign(headers, { "Mcp-Session-Id": session, "MCP-Protocol-Version": VERSION });
  return new Request("http://127.0.0.1/mcp", { method: "POST", headers, body: JSON.stringify(body) });
}

/** A session on its own motebit (with or without the port), then one tools/call per call. */
async function side(telemetry: TelemetryPort | undefined): Promise<(i: number) => Promise<void>> {
  const { sql, config, motebit } = await benchMotebit(env, telemetry);
  const app = createApp({ backend: new InProcessBackend({ config, sql, clock: systemClock, motebit }) });
  const init = await app.fetch(request({ jsonrpc: "2.0", id: 0, method: "initialize", params: { protocolVersion: VERSION, capabilities: {}, clientInfo: { name: "bench", version: "1" } } }, null));
  const session = init.headers.get("Mcp-Session-Id");
  if (init.status !== 200 || session === null) throw new Error(`initialize: HTTP ${init.status}`);
  return async (i) => {
    const res = await app.fetch(request({ jsonrpc: "2.0", id: i + 1, method: "tools/call", params: motebitCall(i) }, session));
    const text = await res.text();
    if (res.status !== 200 || !text.includes(`hi ${i}`)) throw new Error(`tools/call: HTTP ${res.status} ${text.slice(0, 200)}`);
  };
}

async function cpuPerCall(one: (i: number) => Promise<void>, n: number): Promise<number> {
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) await one(i);
  const c = process.cpuUsage(c0);
  return (c.user + c.system) / n;
}

const sides = [
  { label: "telemetry off (no port)", one: await side(undefined), cpu: [] as number[] },
  { label: "telemetry on (in-memory exporters)", one: await side(port), cpu: [] as number[] },
];
for (const s of sides) await cpuPerCall(s.one, WARMUP);
for (let r = 0; r < ROUNDS; r++) {
  for (const s of r % 2 === 0 ? sides : [...sides].reverse()) s.cpu.push(await cpuPerCall(s.one, N));
  spans.reset();
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log(`tools/call ${BENCH_TOOL}, ${N} calls x ${ROUNDS} rounds, process CPU µs per call (median of rounds), load ${loadavg()[0].toFixed(1)}`);
for (const s of sides) console.log(`  ${s.label.padEnd(36)} ${median(s.cpu).toFixed(1)} µs  (rounds: ${s.cpu.map((x) => x.toFixed(0)).join(", ")})`);
console.log(`  added by telemetry: ${(median(sides[1].cpu) - median(sides[0].cpu)).toFixed(1)} µs per call`);
await Promise.all([tracing.shutdown(), metering.shutdown()]);
