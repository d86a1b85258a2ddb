// The edge with OTEL_* vars set (vitest.otel.config.ts): the Worker's SERVER span per request and the object's spans
// reach a real OTLP receiver over fetch, after the response, with the caller's trace id and the collector headers.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { INITIALIZE, mcpRequest } from "../edge/helpers.js";

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

  it("a request without a traceparent starts its own trace", async () => {
    const res = await SELF.fetch(new Request("http://edge.test/health"));
    await res.body?.cancel();
    const r = await received((r) => r.spans.some((s) => s.name === "GET /health"));
    const health = r.spans.find((s) => s.name === "GET /health")!;
    expect(health.parentSpanId).toBe("");
    expect(health.traceId).toMatch(/^[0-9a-f]{32}$/);
  });
});
