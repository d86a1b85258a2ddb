// The real motebit-local CLI (its bundle, the OTel packages loaded from its dependencies) with the standard OTEL_*
// variables, exporting to a real OTLP receiver: a tools/call motebit_task with a traceparent in _meta over stdio gives
// a SERVER span in that trace with the gate, tool and signing children and the receipt's task id, flushed when stdin
// closes, or on SIGTERM; over HTTP the same with a traceparent header. Secrets planted in the call (memory text, prompt, argument,
// token) appear in no exported byte.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { BIN, cleanEnv, connectStdio, initMotebit, REPO, startHttpServe, tempDir, writeToolsModule } from "./helpers/local-cli.js";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver.js";
import { waitFor } from "../../shared/wait-for.js";

const TRACE_ID = "5f2c8e1d9a7b4c3e8d6f0a1b2c3d4e5f";
const PARENT = "a1b2c3d4e5f60718";
const SECRET_PROMPT = "prompt-secret-7f3a9c";
const SECRET_MEMORY = "memory-secret-b81d44";
const TOKEN = "otel-e2e-token-secret-0123456789";

function child(spans: ReceivedSpan[], name: string, parent: ReceivedSpan): ReceivedSpan {
  const s = spans.find((x) => x.name === name && x.parentSpanId === parent.spanId);
  if (s === undefined) throw new Error(`no ${name} under ${parent.name}; got ${spans.map((x) => x.name).join(", ")}`);
  return s;
}

describe("motebit-local exports a tools/call's trace to a real OTLP receiver", () => {
  const tmp = tempDir();
  let receiver: OtlpReceiver;
  let identity: string;
  let tools: string;

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "otel-e2e"]);
    tools = writeToolsModule(tmp.dir);
  });
  afterAll(async () => {
    await receiver.close();
    tmp.cleanup();
  });

  it.each(["http/protobuf", "http/json"])("stdio, %s: the server span in the caller's trace, gate, tool and signing children, flushed at stdin close", async (protocol) => {
    const service = `e2e-stdio-${protocol}`;
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_SERVICE_NAME: service });
    const s = await connectStdio(["--identity", identity, "--tools", tools, "--direct", "--data-dir", join(tmp.dir, `data-${service.replace("/", "-")}`)], env);
    await s.client.callTool({ name: "motebit_remember", arguments: { content: SECRET_MEMORY, sensitivity: "none" } });
    const r = (await s.client.callTool({ name: "motebit_task", arguments: { prompt: SECRET_PROMPT, required_capabilities: ["shout"] }, _meta: { traceparent: `00-${TRACE_ID}-${PARENT}-01` } })) as { content: { text: string }[] };
    const receipt = JSON.parse(stripIdentityTag(r.content[0].text)) as { task_id: string; result_hash: string };
    await s.close();
    expect(s.stderr()).toContain("OpenTelemetry on as " + service);

    const spans = await receiver.waitFor(() => {
      const mine = receiver.spans().filter((x) => x.serviceName === service);
      return mine.some((x) => x.name === "sign_receipt") ? mine : undefined;
    });
    const server = spans.find((x) => x.name === "tools/call motebit_task")!;
    expect(server).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT, kind: 2 });
    expect(server.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "motebit_task", "motebit.caller": "owner" });
    const tool = child(spans, "execute_tool motebit_task", server);
    child(spans, "admission motebit_task", server);
    child(spans, "admission shout", tool);
    child(spans, "execute_tool shout", tool);
    const signing = child(spans, "sign_receipt", tool);
    expect(signing.attributes).toMatchObject({ "motebit.receipt.task_id": receipt.task_id, "motebit.receipt.result_hash": receipt.result_hash });
    for (const x of spans.filter((x) => x.traceId === TRACE_ID)) expect(x.endNs).toBeGreaterThanOrEqual(x.startNs);
  });

  it("stdio: SIGTERM exports the spans before the process exits", { timeout: 90_000 }, async () => {
    const service = "e2e-sigterm";
    const traceId = TRACE_ID.replace(/^5/, "7");
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: service });
    const child = spawn(process.execPath, [BIN, "serve", "--identity", identity, "--tools", tools, "--data-dir", join(tmp.dir, "data-sigterm")], { cwd: REPO, env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    child.stdout.on("data", (c) => (stdout += c));
    const exited = new Promise<number | null>((r) => child.on("close", r));
    const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };
    const call = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "shout", arguments: { text: "x" }, _meta: { traceparent: `00-${traceId}-${PARENT}-01` } } };
    child.stdin.write(JSON.stringify(initialize) + "\n" + JSON.stringify(call) + "\n");
    try {
      await waitFor("the tools/call answer on stdout", () => stdout.includes('"id":2'), 45_000);
      child.kill("SIGTERM");
      expect(await exited).toBe(0);
    } finally {
      child.kill("SIGKILL");
    }
    // Already there when the process is gone: the stop exported them.
    expect(receiver.spans().find((x) => x.serviceName === service && x.name === "tools/call shout")).toMatchObject({ traceId, parentSpanId: PARENT });
  });

  it("http: the traceparent header parents the call; the metrics are not on the MCP listener; the token, prompt and memory text are in no exported byte", async () => {
    const service = "e2e-http";
    const config = join(tmp.dir, "motebit.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    chmodSync(config, 0o600);
    const env = cleanEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: service, OTEL_METRIC_EXPORT_INTERVAL: "200" });
    const server = await startHttpServe(["--identity", identity, "--tools", tools, "--config", config, "--serve-port", "0", "--data-dir", join(tmp.dir, "data-http"), "--metrics-port", "0"], env);
    try {
      // The scrape endpoint is loopback and its own port; the MCP listener serves no metrics, even to a caller with a token.
      const scrape = new URL(/Prometheus scrape at (http:\/\/\S+)/.exec(server.stderr())![1]);
      expect(scrape.hostname).toBe("127.0.0.1");
      expect(scrape.port).not.toBe(new URL(server.url).port);
      for (const path of ["/metrics", "/mcp/metrics"]) {
        const r = await fetch(`${server.url}${path}`, { headers: { Authorization: `Bearer ${TOKEN}` } });
        expect(await r.text()).not.toContain("mcp_server_operation_duration");
      }
      const traceparent = `00-${TRACE_ID.replace(/^5/, "6")}-${PARENT}-01`;
      const client = new Client({ name: "otel-e2e", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}`, traceparent } } }));
      await client.callTool({ name: "motebit_task", arguments: { prompt: SECRET_PROMPT, required_capabilities: ["shout"] } });
      await client.callTool({ name: "shout", arguments: { text: SECRET_MEMORY } });
      await client.close();
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const spans = receiver.spans().filter((x) => x.serviceName === service);
    const call = spans.find((x) => x.name === "tools/call motebit_task")!;
    expect(call).toMatchObject({ traceId: TRACE_ID.replace(/^5/, "6"), parentSpanId: PARENT });
    expect(call.attributes["motebit.caller"]).toBe("peer:static:static");
    expect(receiver.metrics().some((m) => m.name === "mcp.server.operation.duration")).toBe(true);

    // Every byte every export carried, raw (protobuf and JSON alike), holds none of the planted values.
    const all = Buffer.concat(receiver.exports.map((e) => e.body));
    for (const secret of [TOKEN, SECRET_PROMPT, SECRET_MEMORY, SECRET_MEMORY.toUpperCase()]) expect(all.includes(secret), secret).toBe(false);
    for (const e of receiver.exports) expect(JSON.stringify(e.headers)).not.toContain(TOKEN);
  });
});
