// Over HTTP (the shared app, in-process), the traceparent header parents the request's span and the session and
// protocol version are its attributes; in AI mode each model call is a span under the task, and the provider is
// sent the trace context; an owner's MCP server is sent it in _meta.
import { SpanKind } from "@opentelemetry/api";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { afterEach, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { servedTools } from "../../../local-stdio/src/mcp-servers/server-tools.js";
import type { McpServerConfig } from "../../../local-stdio/src/mcp-servers/config.js";
import { inMemoryOtel, parentOf, type InMemoryOtel } from "./in-memory-otel.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

describe("trace context over HTTP, to the model and to an owner's MCP server", () => {
  it("the HTTP traceparent header parents the server span; session id and protocol version are on it", async () => {
    otel = inMemoryOtel();
    const { app } = await nodeApp({}, { telemetry: otel.port });
    const post = (body: unknown, headers: Record<string, string> = {}) =>
      app.fetch(
        new Request("http://node.test/mcp", {
          method: "POST",
          headers: { authorization: `Bearer ${keys.auth_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
          body: JSON.stringify(body),
        }),
      );
    const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } });
    const session = init.headers.get("mcp-session-id")!;
    const res = await post(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: { text: "hi" } } },
      { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18", traceparent: TRACEPARENT },
    );
    expect(res.status).toBe(200);
    const server = await otel.span("tools/call echo");
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(server.attributes).toMatchObject({
      "mcp.session.id": session,
      "mcp.protocol.version": "2025-06-18",
      "network.transport": "tcp",
      "network.protocol.name": "http",
      "motebit.caller": "peer:static:static",
    });
  });

  it("AI mode: each model call is a span under the task's tool span, and the provider gets the traceparent", async () => {
    otel = inMemoryOtel();
    const llm = new ScriptedLlm({ tools: [{ name: "echo", input: { text: "hi" } }] }, "done");
    const h = await makeMotebit({ llm, telemetry: otel.port });
    await h.rpc(owner, "tools/call", { name: "motebit_task", arguments: { prompt: "say hi" }, _meta: { traceparent: TRACEPARENT } });
    const task = await otel.span("execute_tool motebit_task");
    const chats = (await otel.spans()).filter((s) => s.name === "chat scripted-test-model");
    expect(chats.length).toBe(2);
    for (const c of chats) {
      expect(c.spanContext().traceId).toBe(TRACE_ID);
      expect(parentOf(c)).toBe(task.spanContext().spanId);
      expect(c.attributes).toMatchObject({ "gen_ai.operation.name": "chat", "gen_ai.request.model": "scripted-test-model" });
    }
    expect(parentOf(await otel.span("execute_tool echo"))).toBe(task.spanContext().spanId);
    expect(parentOf(await otel.span("admission echo"))).toBe(task.spanContext().spanId);
    expect(llm.seen[0].headers?.traceparent).toMatch(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`));
  });

  it("a call to an owner's MCP server carries the same trace id in _meta.traceparent", async () => {
    otel = inMemoryOtel();
    const received: unknown[] = [];
    const server = new McpServer({ name: "fx", version: "1" });
    server.registerTool("echo", { description: "echo" }, async (extra) => {
      received.push(extra._meta);
      return { content: [{ type: "text", text: "ok" }] };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "motebit", version: "1" });
    await client.connect(b);
    const { tools } = await client.listTools();
    const config = { name: "fx", risk: 0, toolRisk: new Map() } as unknown as McpServerConfig;
    const h = await makeMotebit({ tools: servedTools(config, client, tools), telemetry: otel.port });
    const r = await h.rpc(owner, "tools/call", { name: "fx__echo", arguments: {}, _meta: { traceparent: TRACEPARENT } });
    expect(r.result.isError).toBeUndefined();
    const run = await otel.span("execute_tool fx__echo");
    expect(received).toEqual([expect.objectContaining({ traceparent: `00-${TRACE_ID}-${run.spanContext().spanId}-01` })]);
    await client.close();
  });

  it("a peer's refused motebit_task (bad delegation token) is a refusal span with its reason", async () => {
    otel = inMemoryOtel();
    const h = await makeMotebit({ telemetry: otel.port });
    const r = await h.call(peer(), "motebit_task", { prompt: "x", delegation_token: "{}" });
    expect(r.isError).toBe(true);
    const refusal = await otel.span("refusal");
    expect(refusal.attributes["motebit.refusal.kind"]).toBe("task");
    expect(r.content[0].text).toContain(String(refusal.attributes["motebit.refusal.reason"]));
  });
});
