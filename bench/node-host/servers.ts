// The servers of bench/node-host, in a process of their own so the bench can tell their CPU from its client's:
// motebit-local's HTTP mode (the edge's app in Node), a bare MCP SDK 1.32 server and a canned node:http answer.
// Started by run.ts with fork(); sends { urls } once listening, answers "cpu" with process.cpuUsage(), ends on "stop".
// Given a second argument, the directory of another checkout (the code before a change), it serves that checkout's
// motebit-local too, so before and after take turns in the same run.
import { createServer, type Server } from "node:http";
import { freePort } from "../../test/node/edge/local-edge.js";
import { startBaseline, startNodeApp } from "../edge/node-servers.js";
import { startNodeTelemetry } from "../../local-stdio/src/telemetry/start-telemetry.js";

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

const env = JSON.parse(process.argv[2]) as Record<string, string>;
const beforeDir = process.argv[3];
const nodeApp = await startNodeApp(env);
const before: Awaited<ReturnType<typeof startNodeApp>> | null = beforeDir
  ? await ((await import(`${beforeDir}/bench/edge/node-servers.ts`)) as { startNodeApp: typeof startNodeApp }).startNodeApp(env)
  : null;
const otlp = process.env.MOTEBIT_BENCH_OTLP_ENDPOINT;
const telemetry = otlp === undefined ? null : await startNodeTelemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: otlp }, metricsPortFlag: null, log: () => {} });
const traced = telemetry === null ? null : await startNodeApp(env, telemetry.port);
const sdk = await startBaseline();
const canned = await startCanned();
process.on("message", async (m) => {
  // The traced side's batched exports are charged to its own turn: flushed before each reading, not in another side's.
  if (m === "cpu") await telemetry?.flush();
  if (m === "cpu") process.send!({ cpu: process.cpuUsage() });
  if (m === "stop") {
    await Promise.all([canned.close(), sdk.close(), nodeApp.close(), before?.close(), traced?.close(), telemetry?.shutdown()]);
    process.disconnect();
  }
});
process.send!({ urls: { nodeApp: nodeApp.url, sdk: sdk.url, canned: canned.url, before: before?.url ?? null, traced: traced?.url ?? null } });
