// The Worker's own telemetry: one SDK per env object (an isolate has one), started at its first request when the
// vars name an OTLP endpoint; none: null, and the request path is the same as without telemetry.
import { edgeOtelSettings, startEdgeTelemetry } from "../durable-objects/edge-telemetry.js";
import type { EdgeTelemetry } from "../durable-objects/otlp-fetch.js";
import type { EdgeEnv } from "./env.js";

const started = new WeakMap<EdgeEnv, Promise<EdgeTelemetry> | null>();

export function workerTelemetry(env: EdgeEnv): Promise<EdgeTelemetry> | null {
  let telemetry = started.get(env);
  if (telemetry === undefined) {
    let settings = null;
    try {
      settings = edgeOtelSettings(env);
    } catch {
      // Malformed OTEL_* vars: the motebit's object fails its start with why, and answers every request with it.
    }
    telemetry = settings === null ? null : startEdgeTelemetry(settings, null);
    started.set(env, telemetry);
  }
  return telemetry;
}

/** The request under a SERVER span of the Worker's (traced-request.ts, loaded only with telemetry on). */
export async function tracedFetch(telemetry: Promise<EdgeTelemetry>, request: Request, ctx: ExecutionContext, next: (r: Request) => Response | Promise<Response>): Promise<Response> {
  const { serveTraced } = await import("./traced-request.js");
  return serveTraced(await telemetry, request, ctx, next);
}
