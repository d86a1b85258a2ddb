// The Node-side servers the benches drive over HTTP: motebit-local's HTTP mode (the edge's app in Node) and the
// MCP SDK's own server as the baseline. Shared by bench/edge and bench/node-host.
import { createServer, type Server } from "node:http";
import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";
import exampleTools from "../../examples/tools/index.js";
import { systemClock } from "../../src/ports.js";
import { readServerConfig } from "../../src/settings/server-config.js";
import { createHostMotebit } from "../../src/host/host-motebit.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import type { TelemetryPort } from "../../src/telemetry/port.js";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";
import { serveHttp } from "../../local-stdio/src/serve/http-host.js";
import { nodeSigner } from "../../local-stdio/src/serve/node-sign.js";
import { nodeSha256Hex } from "../../local-stdio/src/serve/node-sha256.js";
import { useNativeSha256 } from "../../src/protocol/index.js";
import { freePort } from "../../test/node/edge/local-edge.js";

/** motebit-local's motebit over in-memory SQLite with the bench's settings, as `motebit-local serve` builds it. */
/** `telemetry`: the operator's OpenTelemetry (bench/node-host/telemetry.ts); absent, as a host without an exporter. */
export async function benchMotebit(env: Record<string, string>, telemetry?: TelemetryPort) {
  // motebit-local's CLI plugs node:crypto's digest in at start (local-stdio/src/cli.ts).
  useNativeSha256(nodeSha256Hex);
  const sql = openSqlite(":memory:");
  const config = readServerConfig({ env });
  const motebit = await createHostMotebit({
    sql,
    clock: systemClock,
    secrets: { privateKeyHex: env.MOTEBIT_PRIVATE_KEY, identityFileText: null },
    config,
    tools: ToolRegistry.fromModule(exampleTools),
    signerFor: nodeSigner,
    telemetry,
  });
  return { sql, config, motebit };
}

/** The edge's app in Node, as `motebit-local serve --serve-transport http` runs it, with the bench's settings. */
export async function startNodeApp(env: Record<string, string>, telemetry?: TelemetryPort): Promise<{ url: string; close(): Promise<void> }> {
  const { sql, config, motebit } = await benchMotebit(env, telemetry);
  const host = await serveHttp({ motebit, sql, clock: systemClock, config, host: "127.0.0.1", port: 0 });
  return { url: `${host.url}/mcp`, close: async () => (await host.close(), sql.close()) };
}

/** The baseline: the SDK's own server, one stateful session, JSON responses, the same echo tool. */
export async function startBaseline(): Promise<{ url: string; close(): Promise<void> }> {
  const mcp = new McpServer({ name: "baseline", version: "1.0.0" });
  mcp.registerTool("echo", { description: "Returns the text it is given.", inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: "text", text }],
  }));
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), enableJsonResponse: true });
  await mcp.connect(transport);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : undefined;
      transport.handleRequest(req, res, body).catch((e) => {
        res.statusCode = 500;
        res.end(String(e));
      });
    });
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      await mcp.close();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
