// motebit-local's telemetry port, built from the standard OTEL_* variables, delivers to a real OTLP receiver over both
// protocols: a span started under a propagated traceparent keeps its trace id, its child points at it, the headers
// and service name arrive; metrics go over OTLP and to the loopback Prometheus endpoint; without settings, nothing.
import { context, SpanKind, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startNodeTelemetry } from "../../../local-stdio/src/telemetry/start-telemetry.js";
import { startOtlpReceiver, type OtlpReceiver } from "../helpers/otlp-receiver.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;
const quiet = () => {};

function remoteParent() {
  return new W3CTraceContextPropagator().extract(context.active(), { traceparent: TRACEPARENT }, { get: (c, k) => c[k], keys: (c) => Object.keys(c) });
}

describe("motebit-local telemetry export", () => {
  let receiver: OtlpReceiver;
  beforeAll(async () => (receiver = await startOtlpReceiver()));
  afterAll(() => receiver.close());

  it.each(["http/protobuf", "http/json"])("%s: spans reach the receiver with the propagated trace id, parent and child, headers and service name", async (protocol) => {
    const service = `motebit-local-test-${protocol}`;
    const t = await startNodeTelemetry({
      env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol, OTEL_EXPORTER_OTLP_HEADERS: "x-collector-key=k%3D1", OTEL_SERVICE_NAME: service },
      metricsPortFlag: null,
      log: quiet,
    });
    expect(t).not.toBeNull();
    const server = t!.port.tracer.startSpan("tools/call motebit_task", { kind: SpanKind.SERVER }, remoteParent());
    const child = t!.port.tracer.startSpan("sign receipt", {}, trace.setSpan(context.active(), server));
    child.end();
    server.end();
    await t!.shutdown();
    const spans = receiver.spans().filter((s) => s.serviceName === service);
    const parent = spans.find((s) => s.name === "tools/call motebit_task")!;
    const signed = spans.find((s) => s.name === "sign receipt")!;
    expect(parent).toMatchObject({ traceId: TRACE_ID, parentSpanId: "00f067aa0ba902b7", kind: 2, scope: "motebit" });
    expect(signed).toMatchObject({ traceId: TRACE_ID, parentSpanId: parent.spanId });
    const posted = receiver.exports.filter((e) => e.path === "/v1/traces" && e.contentType.includes(protocol === "http/json" ? "json" : "protobuf"));
    expect(posted.length).toBeGreaterThan(0);
    expect(posted[0].headers["x-collector-key"]).toBe("k=1");
  });

  it("metrics go over OTLP, flushed on shutdown", async () => {
    const t = await startNodeTelemetry({ env: { OTEL_EXPORTER_OTLP_METRICS_ENDPOINT: `${receiver.url}/v1/metrics`, OTEL_SERVICE_NAME: "metrics-test" }, metricsPortFlag: null, log: quiet });
    t!.port.meter.createCounter("motebit.test.calls").add(3, { outcome: "ok" });
    await t!.shutdown();
    const seen = receiver.metrics().find((m) => m.name === "motebit.test.calls");
    expect(seen?.points).toEqual([{ attributes: { outcome: "ok" }, value: 3 }]);
    // Only the metrics endpoint was named: no traces were posted for this service.
    expect(receiver.spans().filter((s) => s.serviceName === "metrics-test")).toEqual([]);
  });

  it("a metrics port alone opens a Prometheus endpoint on 127.0.0.1 and records no spans", async () => {
    const lines: string[] = [];
    const t = await startNodeTelemetry({ env: {}, metricsPortFlag: 0, log: (l) => lines.push(l) });
    try {
      expect(t!.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
      expect(lines.join("\n")).toContain("loopback only");
      t!.port.meter.createCounter("motebit.test.refusals").add(2, { reason: "rate_limited" });
      const text = await (await fetch(t!.metricsUrl!)).text();
      expect(text).toMatch(/motebit_test_refusals(_total)?\{[^}]*reason="rate_limited"[^}]*\} 2/);
      expect(t!.port.tracer.startSpan("x").isRecording()).toBe(false);
      expect((await fetch(t!.metricsUrl!.replace("/metrics", "/other"))).status).toBe(404);
    } finally {
      await t!.shutdown();
    }
    await expect(fetch(t!.metricsUrl!)).rejects.toThrow();
  });

  it("MOTEBIT_METRICS_PORT opens it too; the flag wins; a bad value is a CLI error", async () => {
    await expect(startNodeTelemetry({ env: { MOTEBIT_METRICS_PORT: "port" }, metricsPortFlag: null, log: quiet })).rejects.toThrow(/MOTEBIT_METRICS_PORT must be a whole number/);
    const t = await startNodeTelemetry({ env: { MOTEBIT_METRICS_PORT: "1" }, metricsPortFlag: 0, log: quiet });
    expect(t!.metricsUrl).not.toContain(":1/");
    await t!.shutdown();
  });

  it("no endpoint and no metrics port: no telemetry at all; OTEL_SDK_DISABLED wins over an endpoint", async () => {
    expect(await startNodeTelemetry({ env: {}, metricsPortFlag: null, log: quiet })).toBeNull();
    expect(await startNodeTelemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SDK_DISABLED: "true" }, metricsPortFlag: null, log: quiet })).toBeNull();
  });

  it("grpc and unknown samplers are refused with the variable's name", async () => {
    await expect(startNodeTelemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, metricsPortFlag: null, log: quiet })).rejects.toThrow(/OTEL_EXPORTER_OTLP_TRACES_PROTOCOL must be http\/protobuf or http\/json/);
    await expect(startNodeTelemetry({ env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_TRACES_SAMPLER: "sometimes" }, metricsPortFlag: null, log: quiet })).rejects.toThrow(/OTEL_TRACES_SAMPLER must be one of/);
  });
});
