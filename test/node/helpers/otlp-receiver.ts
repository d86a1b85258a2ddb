// A real OTLP/HTTP receiver for tests: a plain HTTP server on port 0 that decodes what the exporters post with the
// official opentelemetry-proto definitions (vendored in test/fixtures/opentelemetry-proto, loaded by protobufjs):
// http/protobuf bodies are decoded by them, http/json bodies are read by them (fromObject), so nothing here is a
// decoder of our own. Spans and metric names come back flat for assertions.
import { createServer, type IncomingMessage } from "node:http";
import { join, resolve } from "node:path";
import protobuf from "protobufjs";

const PROTO_DIR = resolve(import.meta.dirname, "../../fixtures/opentelemetry-proto");

function loadRoot(): protobuf.Root {
  const root = new protobuf.Root();
  root.resolvePath = (_origin, target) => join(PROTO_DIR, target);
  root.loadSync(["opentelemetry/proto/collector/trace/v1/trace_service.proto", "opentelemetry/proto/collector/metrics/v1/metrics_service.proto"]);
  return root;
}

const root = loadRoot();
const TraceRequest = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest");
const MetricsRequest = root.lookupType("opentelemetry.proto.collector.metrics.v1.ExportMetricsServiceRequest");
const TraceResponse = root.lookupType("opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse");

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  /** SPAN_KIND_SERVER is 2, INTERNAL 1, CLIENT 3. */
  kind: number;
  attributes: Record<string, unknown>;
  startNs: bigint;
  endNs: bigint;
  statusCode: number;
  serviceName: unknown;
  scope: string;
}

export interface ReceivedExport {
  path: string;
  contentType: string;
  headers: IncomingMessage["headers"];
  /** The raw bytes as posted (for searching every exported byte). */
  body: Buffer;
}

export interface OtlpReceiver {
  /** The base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  exports: ReceivedExport[];
  spans(): ReceivedSpan[];
  /** Metric names with their data points' attributes and values, from every metrics export so far. */
  metrics(): { name: string; points: { attributes: Record<string, unknown>; value: number }[] }[];
  /** Resolves once `test` holds for the spans received, or rejects after `timeoutMs`. */
  waitFor<T>(test: () => T | undefined | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
}

type Obj = Record<string, any>;

function anyValue(v: Obj | undefined): unknown {
  if (v === undefined || v === null) return undefined;
  if ("stringValue" in v) return v.stringValue;
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return v.doubleValue;
  if ("boolValue" in v) return v.boolValue;
  if ("arrayValue" in v) return (v.arrayValue.values ?? []).map(anyValue);
  return undefined;
}

function attributes(list: Obj[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, anyValue(kv.value)]));
}

const hex = (b: Uint8Array | undefined) => Buffer.from(b ?? []).toString("hex");

/** OTLP/JSON spells ids as hex (not protobuf-JSON's base64): turn them to bytes before the definitions read it. */
function jsonIdsToBytes(o: unknown): unknown {
  if (Array.isArray(o)) return o.map(jsonIdsToBytes);
  if (o === null || typeof o !== "object") return o;
  return Object.fromEntries(
    Object.entries(o).map(([k, v]) => [k, (k === "traceId" || k === "spanId" || k === "parentSpanId") && typeof v === "string" ? Buffer.from(v, "hex") : jsonIdsToBytes(v)]),
  );
}

function decode(type: protobuf.Type, e: ReceivedExport): Obj {
  const message = e.contentType.includes("json") ? type.fromObject(jsonIdsToBytes(JSON.parse(e.body.toString("utf8"))) as Obj) : type.decode(e.body);
  return type.toObject(message, { longs: String, defaults: false, arrays: true });
}

export async function startOtlpReceiver(host = "127.0.0.1"): Promise<OtlpReceiver> {
  const exports: ReceivedExport[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const contentType = String(req.headers["content-type"] ?? "");
      exports.push({ path: new URL(req.url ?? "/", "http://x").pathname, contentType, headers: req.headers, body: Buffer.concat(chunks) });
      if (contentType.includes("json")) {
        res.setHeader("content-type", "application/json");
        res.end("{}");
      } else {
        res.setHeader("content-type", "application/x-protobuf");
        res.end(Buffer.from(TraceResponse.encode(TraceResponse.create({})).finish()));
      }
    });
  });
  // Never what keeps a test process alive (the workerd-otel project never closes it: it lives as long as the run).
  server.unref();
  server.on("connection", (socket) => socket.unref());
  await new Promise<void>((r) => server.listen(0, host, r));
  const { port } = server.address() as { port: number };

  const spans = (): ReceivedSpan[] =>
    exports
      .filter((e) => e.path.endsWith("/v1/traces"))
      .flatMap((e) =>
        (decode(TraceRequest, e).resourceSpans ?? []).flatMap((rs: Obj) =>
          (rs.scopeSpans ?? []).flatMap((ss: Obj) =>
            (ss.spans ?? []).map((s: Obj) => ({
              traceId: hex(s.traceId),
              spanId: hex(s.spanId),
              parentSpanId: hex(s.parentSpanId),
              name: s.name,
              kind: s.kind ?? 0,
              attributes: attributes(s.attributes),
              startNs: BigInt(s.startTimeUnixNano ?? 0),
              endNs: BigInt(s.endTimeUnixNano ?? 0),
              statusCode: s.status?.code ?? 0,
              serviceName: attributes(rs.resource?.attributes)["service.name"],
              scope: ss.scope?.name ?? "",
            })),
          ),
        ),
      );

  const metrics = () =>
    exports
      .filter((e) => e.path.endsWith("/v1/metrics"))
      .flatMap((e) =>
        (decode(MetricsRequest, e).resourceMetrics ?? []).flatMap((rm: Obj) =>
          (rm.scopeMetrics ?? []).flatMap((sm: Obj) =>
            (sm.metrics ?? []).map((m: Obj) => {
              const data = m.sum ?? m.gauge ?? m.histogram ?? { dataPoints: [] };
              return {
                name: m.name as string,
                points: (data.dataPoints ?? []).map((p: Obj) => ({ attributes: attributes(p.attributes), value: Number(p.asInt ?? p.asDouble ?? p.count ?? 0) })),
              };
            }),
          ),
        ),
      );

  return {
    url: `http://${host}:${port}`,
    exports,
    spans,
    metrics,
    async waitFor(test, timeoutMs = 10_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const r = test();
        if (r !== undefined && r !== false) return r as never;
        if (Date.now() > until) throw new Error(`OTLP receiver: not seen within ${timeoutMs} ms; got ${exports.length} exports, spans: ${spans().map((s) => s.name).join(", ")}`);
        await new Promise((w) => setTimeout(w, 25));
      }
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
