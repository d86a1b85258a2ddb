// The core's telemetry entry (motebit-edge/core/otel): the OpenTelemetry SDK both hosts build their TelemetryPort
// from. Hosts import it only when OTEL_* names an endpoint (settings/otel.ts, in the main entry), so a host without
// one never evaluates the SDK (the CLI keeps it out of its bundle: the SDK packages are motebit-local dependencies).
export { INSTRUMENTATION_SCOPE, startOtelSdk } from "./host/otel-sdk.js";
export type { OtelSdk } from "./host/otel-sdk.js";
