// A fleet motebit's backend for one request: the deployment's settings, and the motebit's own identity and callers
// asked of its object (one RPC, so an operator's change or a retirement counts from the next request) once the
// directory has said the name exists (fleet-presence.ts).
import type { ServerBackend } from "../src/server/backend.js";
import { StartupError } from "../src/server/startup-error.js";
import { isFleetName } from "../src/fleet/name.js";
import { UnknownMotebitError } from "../src/fleet/unknown-motebit.js";
import type { FleetAnswer, FleetCaller } from "../durable-objects/motebit-object.js";
import { deploymentConfig } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { fleetStub } from "./fleet-objects.js";
import { isProvisioned } from "./fleet-presence.js";

export function fleetBackend(env: EdgeEnv, name: string): ServerBackend {
  if (!isFleetName(name)) throw new UnknownMotebitError(name);
  const stub = fleetStub(env, name);
  let caller: Promise<FleetCaller> | undefined;
  const load = () =>
    (caller ??= (async () => {
      if (!(await isProvisioned(env, name))) throw new UnknownMotebitError(name);
      const a = (await stub.fleetCaller()) as FleetAnswer<FleetCaller>;
      if (a.ok) return a.value;
      if (a.status === 404) throw new UnknownMotebitError(name);
      throw new StartupError(a.error);
    })());
  return {
    config: () => deploymentConfig(env),
    identity: async () => {
      const { motebitId, publicKeyHex } = await load();
      return { motebitId, publicKeyHex };
    },
    authSettings: async () => {
      const { auth } = await load();
      const { relayTrust, relayId } = deploymentConfig(env);
      return { authToken: null, authTokenSha256: auth.authTokenSha256, knownCallers: auth.knownCallers, relayTrust, relayId };
    },
    handleMcp: (call) => stub.fleetHandleMcp(call),
  };
}
