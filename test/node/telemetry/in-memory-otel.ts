// The official OpenTelemetry SDK with its in-memory exporters, as a host would plug it in: a TelemetryPort whose
// spans and metrics the tests read back exactly as an exporter would receive them.
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider, type ReadableSpan } from "@opentelemetry/sdk-trace";
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { TelemetryPort } from "../../../src/telemetry/port.js";

export interface InMemoryOtel {
  port: TelemetryPort;
  /** Every span ended so far (the SDK's processor exports asynchronously: flushed first). */
  spans(): Promise<ReadableSpan[]>;
  /** Collects now and returns every metric exported so far. */
  metrics(): Promise<ResourceMetrics[]>;
  /** The one span of this name. */
  span(name: string): Promise<ReadableSpan>;
  shutdown(): Promise<void>;
}

export function inMemoryOtel(captureContent = false): InMemoryOtel {
  const spanExporter = new InMemorySpanExporter();
  const tracerProvider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter: spanExporter })] });
  const metricExporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
  const reader = new PeriodicExportingMetricReader({ exporter: metricExporter, exportIntervalMillis: 3_600_000 });
  const meterProvider = new MeterProvider({ readers: [reader] });
  const spans = async () => {
    await tracerProvider.forceFlush();
    return spanExporter.getFinishedSpans();
  };
  return {
    port: { tracer: tracerProvider.getTracer("motebit-test"), meter: meterProvider.getMeter("motebit-test"), captureContent },
    spans,
    async metrics() {
      await reader.forceFlush();
      return metricExporter.getMetrics();
    },
    async span(name) {
      const all = await spans();
      const found = all.filter((s) => s.name === name);
      if (found.length !== 1) throw new Error(`expected one span "${name}", got ${found.length}: ${all.map((s) => s.name).join(", ")}`);
      return found[0];
    },
    async shutdown() {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}

/** The parent span id of a span (the SDK's ReadableSpan names it parentSpanContext). */
export function parentOf(s: ReadableSpan): string | undefined {
  return s.parentSpanContext?.spanId;
}
