// The edge with OTEL_* vars set (vitest.otel.config.ts): the Worker's SERVER span per request and the object's spans
// reach a real OTLP receiver over fetch, after the response, with the caller's trace id and the collector headers:
// a motebit_task with a traceparent in _meta gives the object's SERVER span in that trace, with the gate, the tool
// and the signing (the receipt's task id on it) as children.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { INITIALIZE, mcpRequest, postStateless } from "../edge/helpers.js";

const TRACE_ID = "0af7651916cd43dd8448eb211c80319c";
const CALLER_SPAN = "b7ad6b7169203331";

interface Received {
  spans: { traceId: string; spanId: string; parentSpanId: string; name: string; kind: number; attributes: Record<string, unknown>; serviceName: string }[];
  metrics: { name: string }[];
  exports: { path: string; contentType: string; headers: Record<string, string> }[];
}

async function received(until: (r: Received) => boolean): Promise<Received> {
  let last: Received | undefined;
  for (let i = 0; i < 100; i++) {
    last = (await (await fetch("http://otlp.test/received")).json()) as Received;
    if (until(last)) return last;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`not received; spans: ${last?.spans.map((s) => `${s.name} ${s.traceId}`).join(", ")}`);
}

describe("edge telemetry export", () => {
  it("the Worker's span for a request carries the caller's traceparent and reaches the receiver as protobuf, with the headers", async () => {
    const res = await SELF.fetch(mcpRequest(INITIALIZE, { headers: { traceparent: `00-${TRACE_ID}-${CALLER_SPAN}-01` } }));
    expect(res.status).toBe(200);
    await res.body?.cancel();
    const r = await received((r) => r.spans.some((s) => s.traceId === TRACE_ID && s.name === "POST /mcp"));
    const worker = r.spans.find((s) => s.traceId === TRACE_ID && s.name === "POST /mcp")!;
    expect(worker).toMatchObject({ kind: 2, parentSpanId: CALLER_SPAN, serviceName: "motebit-edge-test" });
    expect(worker.attributes).toMatchObject({ "http.request.method": "POST", "http.route": "/mcp", "url.path": "/mcp", "http.response.status_code": 200 });
    const traces = r.exports.filter((e) => e.path === "/v1/traces");
    expect(traces[0].contentType).toBe("application/x-protobuf");
    expect(traces[0].headers["x-collector-key"]).toBe("edge-test");
  });

  it("the object's spans: the request's span under the Worker's, and motebit_task's under _meta's traceparent with gate, tool and signing", async () => {
    const traceId = "1f2e3d4c5b6a79880f1e2d3c4b5a6978";
    const metaParent = "0123456789abcdef";
    const res = await postStateless(
      "tools/call",
      { name: "motebit_task", arguments: { prompt: "hello edge", required_capabilities: ["echo"] }, _meta: { traceparent: `00-${traceId}-${metaParent}-01` } },
      { headers: { traceparent: `00-${traceId}-${CALLER_SPAN}-01` } },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    const receipt = JSON.parse(stripIdentityTag(body.result.content[0].text)) as { task_id: string };
    const r = await received((r) => r.spans.some((s) => s.traceId === traceId && s.name === "sign_receipt"));
    const spans = r.spans.filter((s) => s.traceId === traceId);
    const under = (name: string, parent: { spanId: string }) => {
      const s = spans.find((x) => x.name === name && x.parentSpanId === parent.spanId);
      if (s === undefined) throw new Error(`no ${name}; got ${spans.map((x) => `${x.name}<${x.parentSpanId}`).join(", ")}`);
      return s;
    };
    const worker = spans.find((s) => s.name === "POST /mcp" && s.parentSpanId === CALLER_SPAN)!;
    expect(worker).toBeDefined();
    const server = spans.find((s) => s.name === "tools/call motebit_task")!;
    // _meta's traceparent wins over the header the Worker forwarded.
    expect(server).toMatchObject({ parentSpanId: metaParent, kind: 2, serviceName: "motebit-edge-test" });
    expect(server.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "motebit_task", "motebit.caller": "peer:static:static" });
    const tool = under("execute_tool motebit_task", server);
    under("admission motebit_task", server);
    under("admission echo", tool);
    under("execute_tool echo", tool);
    expect(under("sign_receipt", tool).attributes["motebit.receipt.task_id"]).toBe(receipt.task_id);
  });

  it("without _meta, the object's request span is a child of the Worker's span; metrics arrive as JSON", async () => {
    const traceId = "2a2e3d4c5b6a79880f1e2d3c4b5a6978";
    const res = await postStateless("tools/list", {}, { headers: { traceparent: `00-${traceId}-${CALLER_SPAN}-01` } });
    expect(res.status).toBe(200);
    await res.body?.cancel();
    const r = await received((r) => r.spans.some((s) => s.traceId === traceId && s.name.startsWith("tools/list")));
    const worker = r.spans.find((s) => s.traceId === traceId && s.name === "POST /mcp")!;
    const list = r.spans.find((s) => s.traceId === traceId && s.name.startsWith("tools/list"))!;
    expect(list.parentSpanId).toBe(worker.spanId);
    const m = await received((r) => r.metrics.some((m) => m.name === "mcp.server.operation.duration"));
    expect(m.exports.some((e) => e.path === "/v1/metrics" && e.contentType === "application/json")).toBe(true);
  });

  it("a request without a traceparent starts its own trace", async () => {
    const res = await SELF.fetch(new Request("http://edge.test/health"));
    await res.body?.cancel();
    const r = await received((r) => r.spans.some((s) => s.name === "GET /health"));
    const health = r.spans.find((s) => s.name === "GET /health")!;
    expect(health.parentSpanId).toBe("");
    expect(health.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
