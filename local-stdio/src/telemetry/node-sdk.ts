// The SDK with the official Node exporters: OTLP over HTTP (protobuf or JSON, as OTEL_EXPORTER_OTLP_PROTOCOL says)
// for traces and metrics, and a Prometheus scrape endpoint on loopback. Loaded only when telemetry is configured.
import { BatchSpanProcessor, type SpanProcessor } from "@opentelemetry/sdk-trace";
import { type IMetricReader, PeriodicExportingMetricReader } from "@opentelemetry/sdk-metrics";
import type { OtelSettings, OtlpTarget, TelemetryPort } from "motebit-edge/core";
import { startOtelSdk } from "motebit-edge/core/otel";
import { openMetricsListener } from "./metrics-listener.js";

export interface NodeTelemetry {
  port: TelemetryPort;
  /** http://127.0.0.1:<port>/metrics when a Prometheus scrape endpoint is open, else null. */
  metricsUrl: string | null;
  /** Exports what is buffered now; bounded, never throws. */
  flush(): Promise<void>;
  /** Exports what is buffered and closes the scrape endpoint; bounded, never throws. */
  shutdown(): Promise<void>;
}

/** How long a stop waits for the last export before giving up (the process exits either way). */
export const FLUSH_BUDGET_MS = 2_000;

async function spanExporter(t: OtlpTarget) {
  const config = { url: t.url, headers: t.headers, timeoutMillis: FLUSH_BUDGET_MS };
  if (t.protocol === "http/json") return new (await import("@opentelemetry/exporter-trace-otlp-http")).OTLPTraceExporter(config);
  return new (await import("@opentelemetry/exporter-trace-otlp-proto")).OTLPTraceExporter(config);
}

async function metricExporter(t: OtlpTarget) {
  const config = { url: t.url, headers: t.headers, timeoutMillis: FLUSH_BUDGET_MS };
  if (t.protocol === "http/json") return new (await import("@opentelemetry/exporter-metrics-otlp-http")).OTLPMetricExporter(config);
  return new (await import("@opentelemetry/exporter-metrics-otlp-proto")).OTLPMetricExporter(config);
}

function withinBudget(work: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_BUDGET_MS).unref()));
  return Promise.race([work.then(() => undefined, () => undefined), budget]).finally(() => clearTimeout(timer));
}

export async function startNodeSdk(s: OtelSettings, metricsPort: number | null, log: (line: string) => void): Promise<NodeTelemetry> {
  const spanProcessors: SpanProcessor[] = s.traces === null ? [] : [new BatchSpanProcessor({ exporter: await spanExporter(s.traces), exportTimeoutMillis: FLUSH_BUDGET_MS })];
  const metricReaders: IMetricReader[] = [];
  if (s.metrics !== null) {
    metricReaders.push(new PeriodicExportingMetricReader({ exporter: await metricExporter(s.metrics), exportIntervalMillis: s.metricIntervalMs, exportTimeoutMillis: Math.min(FLUSH_BUDGET_MS, s.metricIntervalMs) }));
  }
  const listener = metricsPort === null ? null : await openMetricsListener(metricsPort);
  if (listener !== null) metricReaders.push(listener.reader);
  const sdk = startOtelSdk(s, { spanProcessors, metricReaders });
  const where = [s.traces && `traces ${s.traces.protocol} to ${s.traces.url}`, s.metrics && `metrics ${s.metrics.protocol} to ${s.metrics.url} every ${s.metricIntervalMs}ms`, listener && `Prometheus scrape at ${listener.url} (loopback only)`];
  log(`motebit: OpenTelemetry on as ${s.serviceName}: ${where.filter(Boolean).join("; ")}; sampler ${s.sampler}`);
  return {
    port: sdk.port,
    metricsUrl: listener?.url ?? null,
    flush: () => withinBudget(sdk.forceFlush()),
    shutdown: () => withinBudget(Promise.all([sdk.shutdown(), listener?.close()])),
  };
}
