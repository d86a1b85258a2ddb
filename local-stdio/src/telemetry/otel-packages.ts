// The OpenTelemetry SDK and exporters are optional peer dependencies of motebit-local: `npx motebit-local` does not
// install them (they doubled its first launch). Telemetry asked for without them is a configuration error whose one
// line names the command that adds them, at the exact versions package.json pins.
import pkg from "../../package.json" with { type: "json" };
import { CliError } from "../cli-error.js";

const PEERS: Record<string, string> = pkg.peerDependencies;

/** `@opentelemetry/api@1.10.0 …`: every optional OpenTelemetry peer at its pinned version. */
export function otelPackageSpecs(): string[] {
  return Object.entries(PEERS).map(([name, version]) => `${name}@${version}`);
}

function isMissingOtelPackage(e: unknown): boolean {
  const err = e as { code?: unknown; message?: unknown } | null;
  return err?.code === "ERR_MODULE_NOT_FOUND" && typeof err.message === "string" && err.message.includes("@opentelemetry/");
}

export function missingOtelPackagesError(): CliError {
  const specs = otelPackageSpecs();
  return new CliError(
    `OpenTelemetry is configured (OTEL_* or --metrics-port) but its packages are not installed; install them with ` +
      `"npm i -g motebit-local ${specs.join(" ")}", or run "npx -p motebit-local ${specs.map((s) => `-p ${s}`).join(" ")} motebit-local serve …"`,
  );
}

/** Runs the SDK's loader; a missing OpenTelemetry package becomes the install line, anything else is unchanged. */
export async function withOtelPackages<T>(load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (e) {
    throw isMissingOtelPackage(e) ? missingOtelPackagesError() : e;
  }
}
