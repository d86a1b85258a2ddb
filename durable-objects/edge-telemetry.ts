// The edge's telemetry, for the Worker and the Durable Object alike: OpenTelemetry's standard variables read from the
// Worker's vars (src/settings/otel.ts). No endpoint: null, and no module of the SDK is evaluated (otlp-fetch.ts is
// imported only here, only then).
import { type EnvLike, type OtelSettings, readOtelSettings } from "../src/index.js";
import type { EdgeTelemetry } from "./otlp-fetch.js";

export const EDGE_SERVICE_NAME = "motebit-edge";

/** The settings, or null when none name an endpoint; a malformed one throws StartupError (the object reports it). */
export function edgeOtelSettings(env: object): OtelSettings | null {
  return readOtelSettings(env as EnvLike, EDGE_SERVICE_NAME);
}

/**
 * `waitUntil` keeps the posts alive past the response. Given (the object's ctx.waitUntil), the end of each local root
 * span sends what is buffered; without it (the Worker: its ctx is per request) the caller calls flush() itself.
 */
export async function startEdgeTelemetry(settings: OtelSettings, waitUntil: ((p: Promise<unknown>) => void) | null): Promise<EdgeTelemetry> {
  return (await import("./otlp-fetch.js")).startFetchTelemetry(settings, waitUntil);
}
