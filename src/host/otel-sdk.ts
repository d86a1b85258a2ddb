// The OpenTelemetry SDK as both hosts assemble it from OTEL_* (settings/otel.ts): one tracer provider with the
// sampler the operator named, one meter provider, one resource. Each host brings its own exporters (motebit-local the
// official OTLP and Prometheus ones; the edge a fetch posted in waitUntil). Loaded only through the lazy entry
// src/otel.ts, so a host without an endpoint never evaluates the SDK. Nothing is registered globally.
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, type Sampler, type SpanProcessor, TraceIdRatioBasedSampler, TracerProvider } from "@opentelemetry/sdk-trace";
import { type IMetricReader, MeterProvider } from "@opentelemetry/sdk-metrics";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { OtelSettings } from "../settings/otel.js";
import type { TelemetryPort } from "../telemetry/port.js";

/** The instrumentation scope every motebit span and instrument is under. */
export const INSTRUMENTATION_SCOPE = "motebit";

export interface OtelSdk {
  port: TelemetryPort;
  /** Exports what is buffered now (spans, and metrics of push readers). */
  forceFlush(): Promise<void>;
  shutdown(): Promise<void>;
}

function sampler(s: OtelSettings): Sampler {
  // No trace target: spans are never recorded, whatever the sampler says (metrics may still be wanted).
  if (s.traces === null) return new AlwaysOffSampler();
  switch (s.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return new TraceIdRatioBasedSampler(s.samplerRatio);
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(s.samplerRatio) });
  }
}

export function startOtelSdk(s: OtelSettings, parts: { spanProcessors: SpanProcessor[]; metricReaders: IMetricReader[] }): OtelSdk {
  const resource = resourceFromAttributes({ "service.name": s.serviceName });
  const tracerProvider = new TracerProvider({ resource, sampler: sampler(s), spanProcessors: parts.spanProcessors });
  const meterProvider = new MeterProvider({ resource, readers: parts.metricReaders });
  return {
    port: { tracer: tracerProvider.getTracer(INSTRUMENTATION_SCOPE), meter: meterProvider.getMeter(INSTRUMENTATION_SCOPE), captureContent: s.captureContent },
    forceFlush: async () => {
      await Promise.all([tracerProvider.forceFlush(), meterProvider.forceFlush()]);
    },
    shutdown: async () => {
      await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
    },
  };
}
