// OTLP over HTTP from workerd: the official serializers (@opentelemetry/otlp-transformer: protobuf or JSON, as
// OTEL_EXPORTER_OTLP_PROTOCOL says) over the SDK (src/otel.ts), posted with fetch. Nothing is sent while a request is
// answered: spans wait in a buffer and go in one POST once the request's local root span ends, inside waitUntil;
// metrics (cumulative) go with a flush at most once per OTEL_METRIC_EXPORT_INTERVAL. An export that fails is dropped
// with one line on the console, never retried (an isolate may be gone before a retry).
import { TraceFlags } from "@opentelemetry/api";
import { JsonMetricsSerializer, JsonTraceSerializer, ProtobufMetricsSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import type { ReadableSpan, SpanProcessor } from "@opentelemetry/sdk-trace";
import { MetricReader } from "@opentelemetry/sdk-metrics";
import type { OtelSettings, OtlpTarget, TelemetryPort } from "../src/index.js";
import { startOtelSdk } from "../src/otel.js";

export interface EdgeTelemetry {
  port: TelemetryPort;
  /** Posts the buffered spans, and the metrics when their interval has passed. Never rejects. */
  flush(): Promise<void>;
}

/** Spans of background work (a task running after its request was answered) wait at most this long for a flush. */
export const STRAGGLER_FLUSH_MS = 1_000;

const CONTENT_TYPE = { "http/protobuf": "application/x-protobuf", "http/json": "application/json" } as const;

async function post(t: OtlpTarget, body: Uint8Array | undefined): Promise<void> {
  if (body === undefined) return;
  try {
    const r = await fetch(t.url, { method: "POST", headers: { ...t.headers, "content-type": CONTENT_TYPE[t.protocol] }, body: body as Uint8Array<ArrayBuffer> });
    await r.body?.cancel();
    if (!r.ok) console.warn(`motebit: OTLP export to ${t.url} answered HTTP ${r.status}; dropped`);
  } catch (e) {
    console.warn(`motebit: OTLP export to ${t.url} failed: ${(e as Error).message}; dropped`);
  }
}

/** Holds ended, sampled spans until a flush; tells the host when a local root (a request's first span here) ended. */
class SpanBuffer implements SpanProcessor {
  readonly spans: ReadableSpan[] = [];
  constructor(private readonly onEnded: (localRoot: boolean) => void) {}
  onStart(): void {}
  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    this.spans.push(span);
    const parent = span.parentSpanContext;
    this.onEnded(parent === undefined || parent.isRemote === true);
  }
  forceFlush(): Promise<void> {
    return Promise.resolve();
  }
  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** Metrics are read when a flush asks (collect()), never on a timer of their own. */
class OnFlushReader extends MetricReader {
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}

export function startFetchTelemetry(s: OtelSettings, waitUntil: ((p: Promise<unknown>) => void) | null): EdgeTelemetry {
  let straggler: ReturnType<typeof setTimeout> | null = null;
  let lastMetrics = 0;
  const buffer = new SpanBuffer((localRoot) => {
    if (waitUntil === null) return;
    if (localRoot) return waitUntil(flush());
    straggler ??= setTimeout(() => {
      straggler = null;
      waitUntil(flush());
    }, STRAGGLER_FLUSH_MS);
  });
  const reader = new OnFlushReader();
  const sdk = startOtelSdk(s, { spanProcessors: s.traces === null ? [] : [buffer], metricReaders: s.metrics === null ? [] : [reader] });
  const traceSerializer = s.traces?.protocol === "http/json" ? JsonTraceSerializer : ProtobufTraceSerializer;
  const metricsSerializer = s.metrics?.protocol === "http/json" ? JsonMetricsSerializer : ProtobufMetricsSerializer;

  async function flush(): Promise<void> {
    const work: Promise<void>[] = [];
    const spans = buffer.spans.splice(0);
    if (s.traces !== null && spans.length > 0) work.push(post(s.traces, traceSerializer.serializeRequest(spans)));
    const now = Date.now();
    if (s.metrics !== null && now - lastMetrics >= s.metricIntervalMs) {
      lastMetrics = now;
      work.push(reader.collect().then(({ resourceMetrics }) => post(s.metrics!, metricsSerializer.serializeRequest(resourceMetrics))));
    }
    await Promise.all(work);
  }
  return { port: sdk.port, flush };
}
