// OpenTelemetry's own environment variables (the SDK specification's names, not motebit settings), read the same way
// on both hosts: the process environment for motebit-local, the Worker's vars at the edge. No OTLP endpoint: null,
// and the host loads nothing of the SDK.
import type { EnvLike } from "./read.js";
import { StartupError } from "./startup-error.js";

export type OtlpProtocol = "http/protobuf" | "http/json";
export type SamplerName = "always_on" | "always_off" | "traceidratio" | "parentbased_always_on" | "parentbased_always_off" | "parentbased_traceidratio";

/** Where one signal goes: the full URL (…/v1/traces or …/v1/metrics), its protocol and its headers. */
export interface OtlpTarget {
  url: string;
  protocol: OtlpProtocol;
  headers: Record<string, string>;
}

export interface OtelSettings {
  serviceName: string;
  traces: OtlpTarget | null;
  metrics: OtlpTarget | null;
  sampler: SamplerName;
  /** OTEL_TRACES_SAMPLER_ARG for the ratio samplers, 0..1 (default 1). */
  samplerRatio: number;
  metricIntervalMs: number;
  /** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true: the conventions' opt-in content attributes. */
  captureContent: boolean;
}

/** Every variable read here, for --help and docs/observability.md. */
export const OTEL_VARIABLES = [
  "OTEL_SDK_DISABLED",
  "OTEL_SERVICE_NAME",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_PROTOCOL",
  "OTEL_EXPORTER_OTLP_TRACES_PROTOCOL",
  "OTEL_EXPORTER_OTLP_METRICS_PROTOCOL",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
  "OTEL_TRACES_EXPORTER",
  "OTEL_METRICS_EXPORTER",
  "OTEL_TRACES_SAMPLER",
  "OTEL_TRACES_SAMPLER_ARG",
  "OTEL_METRIC_EXPORT_INTERVAL",
  "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT",
] as const;

const SAMPLERS: readonly SamplerName[] = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"];
const DEFAULT_METRIC_INTERVAL_MS = 60_000;

function value(env: EnvLike, name: string): string | undefined {
  const v = env[name];
  return typeof v === "string" && v.trim() !== "" ? v.trim() : undefined;
}

function protocol(env: EnvLike, name: string): OtlpProtocol {
  const v = value(env, name) ?? value(env, "OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf";
  if (v !== "http/protobuf" && v !== "http/json") throw new StartupError(`${name} must be http/protobuf or http/json (grpc is not supported), got "${v}"`);
  return v;
}

/** The W3C Baggage-like list the specification uses: `key=value,key2=value2`, values percent-decoded. */
function headers(env: EnvLike, name: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const list of [value(env, "OTEL_EXPORTER_OTLP_HEADERS"), value(env, name)]) {
    for (const pair of (list ?? "").split(",")) {
      if (pair.trim() === "") continue;
      const eq = pair.indexOf("=");
      if (eq <= 0) throw new StartupError(`OTEL_EXPORTER_OTLP_HEADERS entries are key=value (the entry at "${pair.slice(0, eq < 0 ? 0 : eq)}…" is not)`);
      out[decodeURIComponent(pair.slice(0, eq).trim())] = decodeURIComponent(pair.slice(eq + 1).trim());
    }
  }
  return out;
}

/** A signal's URL: its own variable as given, else the base endpoint + /v1/<signal>; null when off or unset. */
function target(env: EnvLike, signal: "TRACES" | "METRICS", exporterVar: string): OtlpTarget | null {
  const exporter = value(env, exporterVar) ?? "otlp";
  if (exporter === "none") return null;
  if (exporter !== "otlp") throw new StartupError(`${exporterVar} must be otlp or none, got "${exporter}"`);
  const own = value(env, `OTEL_EXPORTER_OTLP_${signal}_ENDPOINT`);
  const base = value(env, "OTEL_EXPORTER_OTLP_ENDPOINT");
  const url = own ?? (base === undefined ? undefined : `${base.replace(/\/+$/, "")}/v1/${signal.toLowerCase()}`);
  if (url === undefined) return null;
  if (!/^https?:\/\//.test(url)) throw new StartupError(`OTEL_EXPORTER_OTLP_${own === undefined ? "" : signal + "_"}ENDPOINT must be an http(s) URL, got "${url}"`);
  return { url, protocol: protocol(env, `OTEL_EXPORTER_OTLP_${signal}_PROTOCOL`), headers: headers(env, `OTEL_EXPORTER_OTLP_${signal}_HEADERS`) };
}

/** Metrics may be wanted without an OTLP endpoint (a Prometheus scrape): `metricsWithoutOtlp` says so. */
export function readOtelSettings(env: EnvLike, defaultServiceName: string, metricsWithoutOtlp = false): OtelSettings | null {
  if (value(env, "OTEL_SDK_DISABLED") === "true") return null;
  const traces = target(env, "TRACES", "OTEL_TRACES_EXPORTER");
  const metrics = target(env, "METRICS", "OTEL_METRICS_EXPORTER");
  if (traces === null && metrics === null && !metricsWithoutOtlp) return null;
  const sampler = (value(env, "OTEL_TRACES_SAMPLER") ?? "parentbased_always_on") as SamplerName;
  if (!SAMPLERS.includes(sampler)) throw new StartupError(`OTEL_TRACES_SAMPLER must be one of ${SAMPLERS.join(", ")}, got "${sampler}"`);
  const ratioText = value(env, "OTEL_TRACES_SAMPLER_ARG");
  const samplerRatio = ratioText === undefined ? 1 : Number(ratioText);
  if (!(samplerRatio >= 0 && samplerRatio <= 1)) throw new StartupError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1, got "${ratioText}"`);
  const intervalText = value(env, "OTEL_METRIC_EXPORT_INTERVAL");
  const metricIntervalMs = intervalText === undefined ? DEFAULT_METRIC_INTERVAL_MS : Number(intervalText);
  if (!Number.isInteger(metricIntervalMs) || metricIntervalMs < 100) throw new StartupError(`OTEL_METRIC_EXPORT_INTERVAL must be whole milliseconds, at least 100, got "${intervalText}"`);
  return {
    serviceName: value(env, "OTEL_SERVICE_NAME") ?? defaultServiceName,
    traces,
    metrics,
    sampler,
    samplerRatio,
    metricIntervalMs,
    captureContent: value(env, "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT") === "true",
  };
}
