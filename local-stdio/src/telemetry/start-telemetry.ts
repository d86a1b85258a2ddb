// motebit-local's telemetry, from OpenTelemetry's standard variables (settings/otel.ts) and --metrics-port /
// MOTEBIT_METRICS_PORT. Neither set: null, and no module of the SDK is loaded, no port opened.
import { readOtelSettings } from "motebit-edge/core";
import { asCliError, CliError } from "../cli-error.js";
import { withOtelPackages } from "./otel-packages.js";
// Type only: the SDK module itself loads below, when settings ask for it.
import type { NodeTelemetry } from "./node-sdk.js";

export const DEFAULT_SERVICE_NAME = "motebit-local";

/** The scrape port: the flag's, else MOTEBIT_METRICS_PORT's, else null (no endpoint). */
function metricsPort(flag: number | null, env: NodeJS.ProcessEnv): number | null {
  const v = env.MOTEBIT_METRICS_PORT?.trim();
  if (flag !== null || v === undefined || v === "") return flag;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!(n >= 0 && n <= 65535)) throw new CliError(`MOTEBIT_METRICS_PORT must be a whole number from 0 to 65535, got "${v}"`);
  return n;
}

export async function startNodeTelemetry(o: { env: NodeJS.ProcessEnv; metricsPortFlag: number | null; log: (line: string) => void }): Promise<NodeTelemetry | null> {
  const port = metricsPort(o.metricsPortFlag, o.env);
  const settings = asCliError(() => readOtelSettings(o.env, DEFAULT_SERVICE_NAME, port !== null));
  if (settings === null) return null;
  // The packages are optional peers (otel-packages.ts): a missing one surfaces here, as the chunk or an exporter loads.
  return withOtelPackages(async () => (await import("./node-sdk.js")).startNodeSdk(settings, port, o.log));
}
