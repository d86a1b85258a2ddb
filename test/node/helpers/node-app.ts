// The Node host's HTTP surface in-process: the shared Hono app over an in-process backend (node:sqlite),
// with the edge tests' keys (static token + one known caller), so requests need no socket.
import exampleTools from "../../../examples/tools/index.js";
import { Motebit } from "../../../src/motebit.js";
import { systemClock } from "../../../src/ports.js";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import { InProcessBackend, type InProcessBackendOptions } from "../../../src/server/in-process-backend.js";
import { readServerConfig } from "../../../src/settings/server-config.js";
import { loadHostIdentity } from "../../../src/host/identity.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import { createApp } from "../../../src/server/app.js";
import keys from "../../fixtures/edge/keys.json";
import type { Host } from "../../shared/hostile-requests.js";
import { memorySql } from "./sqlite.js";
import type { TelemetryPort } from "../../../src/telemetry/port.js";

/** `o.tools`: a tools module's default export to serve instead of the example tools. */
export async function nodeApp(
  env: Record<string, unknown> = {},
  o: Partial<Pick<InProcessBackendOptions, "fetchClientMetadata" | "clock">> & { tools?: unknown; telemetry?: TelemetryPort } = {},
) {
  const sql = memorySql();
  const id = await loadHostIdentity(sql, { privateKeyHex: keys.server.seed_hex, identityFileText: null });
  const motebit = await Motebit.create({
    sql,
    clock: o.clock ?? systemClock,
    signer: id.signer,
    motebitId: id.motebitId,
    deviceId: id.deviceId,
    tools: ToolRegistry.fromModule(o.tools ?? exampleTools),
    telemetry: o.telemetry,
  });
  const config = readServerConfig({ env: {
    MOTEBIT_AUTH_TOKEN: keys.auth_token,
    MOTEBIT_KNOWN_CALLERS: { [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } },
    ...env,
  } });
  const backend = new InProcessBackend({ config, sql, clock: o.clock ?? systemClock, motebit, fetchClientMetadata: o.fetchClientMetadata });
  return { app: createApp({ backend, tools: motebit.registry }), sql, motebit, config, backend };
}

/** nodeApp() as the shared cases' Host (test/shared): the static token, signed tokens of the known caller, row counts. */
export async function nodeAppHost(env: Record<string, unknown> = {}): Promise<Host> {
  const { app, sql } = await nodeApp(env);
  const caller = await createSigner(keys.known_caller.seed_hex);
  return {
    fetch: async (req) => app.fetch(req),
    auth: `Bearer ${keys.auth_token}`,
    signedAuth: async (jti) =>
      `Bearer motebit:${await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, jti }, caller)}`,
    rows: async (table) => sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`)[0].n,
  };
}
