// What a host plugs in to see the motebit's work in OpenTelemetry (issue #38). The core instruments with
// @opentelemetry/api only and never registers anything global: the host builds the SDK and hands its tracer and meter
// here. Trace context travels explicitly with each call (workerd has no context manager by default).
import type { Tracer, Meter } from "@opentelemetry/api";

/** Present only when the operator configured an exporter; absent = no telemetry work at all. */
export interface TelemetryPort {
  tracer: Tracer;
  meter: Meter;
  /** The operator's opt-in to content attributes (tool arguments, prompts, memory text); default false. */
  captureContent: boolean;
}
