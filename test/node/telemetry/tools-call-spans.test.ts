// A tools/call as OpenTelemetry sees it, through the official SDK's in-memory exporter: the SERVER span by the MCP
// semantic conventions, parented by the traceparent in params._meta (or the HTTP header), with the gate, the tool
// and the signing as its children, and the duration histogram recorded.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { makeMotebit, owner, peer, relayPeer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { inMemoryOtel, parentOf, type InMemoryOtel } from "./in-memory-otel.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";
const TRACEPARENT = `00-${TRACE_ID}-${PARENT}-01`;

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

async function tracedMotebit() {
  otel = inMemoryOtel();
  return makeMotebit({ telemetry: otel.port });
}

describe("a tools/call's spans", () => {
  it("motebit_task with a traceparent in _meta: a server span in that trace, with gate, tool and signing children", async () => {
    const h = await tracedMotebit();
    const res = await h.rpc(relayPeer, "tools/call", {
      name: "motebit_task",
      arguments: { prompt: "hello world", relay_task_id: "relay-42", required_capabilities: ["echo"] },
      _meta: { traceparent: TRACEPARENT, tracestate: "rojo=00f067aa0ba902b7" },
    });
    const receipt = JSON.parse(stripIdentityTag(res.result.content[0].text));

    const server = await otel.span("tools/call motebit_task");
    expect(server.kind).toBe(SpanKind.SERVER);
    expect(server.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(server)).toBe(PARENT);
    expect(server.attributes).toMatchObject({
      "mcp.method.name": "tools/call",
      "gen_ai.tool.name": "motebit_task",
      "gen_ai.operation.name": "execute_tool",
      "jsonrpc.request.id": String(res.id),
      "motebit.caller": "peer:relay:r1",
    });
    expect(server.attributes["error.type"]).toBeUndefined();

    const admission = await otel.span("admission motebit_task");
    const tool = await otel.span("execute_tool motebit_task");
    const gate = await otel.span("admission echo");
    const run = await otel.span("execute_tool echo");
    const signing = await otel.span("sign_receipt");
    for (const s of [admission, tool, gate, run, signing]) expect(s.spanContext().traceId).toBe(TRACE_ID);
    expect(parentOf(admission)).toBe(server.spanContext().spanId);
    expect(parentOf(tool)).toBe(server.spanContext().spanId);
    expect(parentOf(gate)).toBe(tool.spanContext().spanId);
    expect(parentOf(run)).toBe(tool.spanContext().spanId);
    expect(parentOf(signing)).toBe(tool.spanContext().spanId);
    expect(admission.attributes["motebit.admission.kind"]).toBe("allow");
    expect(signing.attributes).toMatchObject({
      "motebit.receipt.task_id": receipt.task_id,
      "motebit.receipt.result_hash": receipt.result_hash,
      "motebit.receipt.status": "completed",
    });
  });

  it("records mcp.server.operation.duration in seconds with the conventions' buckets, and receipts by status", async () => {
    const h = await tracedMotebit();
    await h.call(peer(), "motebit_task", { prompt: "x", required_capabilities: ["echo"] });
    const metrics = (await otel.metrics()).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
    const duration = metrics.find((m) => m.descriptor.name === "mcp.server.operation.duration")!;
    expect(duration.descriptor.unit).toBe("s");
    const point = duration.dataPoints[0] as { attributes: Record<string, unknown>; value: { buckets: { boundaries: number[] }; count: number } };
    expect(point.value.buckets.boundaries).toEqual([0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300]);
    expect(point.attributes).toMatchObject({ "mcp.method.name": "tools/call", "gen_ai.tool.name": "motebit_task" });
    const receipts = metrics.find((m) => m.descriptor.name === "motebit.receipts.signed")!;
    expect(receipts.dataPoints).toEqual([expect.objectContaining({ attributes: { "motebit.receipt.status": "completed" }, value: 1 })]);
  });

  it("a refusal: the admission span carries its kind and reason, the server span tool_error, the counter counts it", async () => {
    const h = await tracedMotebit();
    const r = await h.call(peer("first_contact"), "motebit_task", { prompt: "x" });
    expect(r.isError).toBe(true);
    const admission = await otel.span("admission motebit_task");
    expect(admission.attributes["motebit.admission.kind"]).toBe("approval");
    expect(admission.attributes["motebit.refusal.reason"]).toBe(r.content[0].text.replace(/\n\[motebit:.*$/, ""));
    expect(admission.status.code).toBe(SpanStatusCode.ERROR);
    const server = await otel.span("tools/call motebit_task");
    expect(server.attributes["error.type"]).toBe("tool_error");
    expect(server.status.code).toBe(SpanStatusCode.ERROR);
    const metrics = (await otel.metrics()).flatMap((x) => x.scopeMetrics.flatMap((s) => s.metrics));
    const refusals = metrics.find((m) => m.descriptor.name === "motebit.refusals")!;
    expect(refusals.dataPoints).toEqual([expect.objectContaining({ attributes: { "motebit.refusal.kind": "approval" }, value: 1 })]);
  });

  it("a JSON-RPC error: error.type and rpc.response.status_code are its code", async () => {
    const h = await tracedMotebit();
    const res = await h.rpc(owner, "tools/call", { name: "no_such_tool" });
    expect(res.error.code).toBe(-32602);
    const server = await otel.span("tools/call no_such_tool");
    expect(server.attributes).toMatchObject({ "error.type": "-32602", "rpc.response.status_code": "-32602" });
  });

  it("a traceparent that is not version 00 of 55 characters, or has an all-zero id, starts a new trace", async () => {
    const h = await tracedMotebit();
    for (const bad of [`01-${TRACE_ID}-${PARENT}-01`, `00-${"0".repeat(32)}-${PARENT}-01`, `00-${TRACE_ID}-${"0".repeat(16)}-01`, `${TRACEPARENT}-x`]) {
      await h.rpc(owner, "ping", { _meta: { traceparent: bad } });
    }
    const pings = (await otel.spans()).filter((s) => s.name === "ping");
    expect(pings).toHaveLength(4);
    for (const s of pings) {
      expect(s.spanContext().traceId).not.toBe(TRACE_ID);
      expect(parentOf(s)).toBeUndefined();
    }
  });
});
