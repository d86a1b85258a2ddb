// A fleet motebit's backend for one request: the deployment's settings, and the motebit's own identity and callers
// (worker/fleet-callers.ts). The call carries the tag of the settings it was authenticated against and the
// credential, so the object can decide again when they have changed.
import { authenticate, type AuthResult, isFleetName, type ServerBackend, UnknownMotebitError, withFleetCallers } from "../src/index.js";
import type { FleetCaller } from "../durable-objects/object-rpc.js";
import { deploymentConfig, discoveryOf } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { fleetCaller } from "./fleet-callers.js";
import { fleetStub } from "./fleet-objects.js";

export function fleetBackend(env: EdgeEnv, name: string): ServerBackend {
  if (!isFleetName(name)) throw new UnknownMotebitError(name);
  // Set by authenticate(), which the app runs before handleMcp.
  let used: { caller: FleetCaller; authorization: string | null } | undefined;
  const check = (caller: FleetCaller, authorization: string | null, now: number): Promise<AuthResult> => {
    // The same settings the object holds (src/fleet/profile.ts): so the relay's forward bearer, key and id count here too.
    return authenticate(authorization, withFleetCallers(deploymentConfig(env), caller.auth), caller, now);
  };
  return {
    config: () => deploymentConfig(env),
    // /health: always the object's own answer (a retired name is 404 at once).
    identity: async () => {
      const { motebitId, publicKeyHex } = (await fleetCaller(env, name, { fresh: true })).caller;
      return { motebitId, publicKeyHex };
    },
    async authenticate(authorization, now) {
      let { caller, kept } = await fleetCaller(env, name, { fresh: false });
      let result = await check(caller, authorization, now);
      // A refusal under a kept copy may be a caller the operator added since: ask the object once more.
      if (!result.ok && kept) {
        caller = (await fleetCaller(env, name, { fresh: true })).caller;
        result = await check(caller, authorization, now);
      }
      used = { caller, authorization };
      return result;
    },
    handleMcp: (call) => {
      if (used === undefined) throw new Error("a fleet call reached handleMcp before authentication");
      return fleetStub(env, name).fleetHandleMcp(call, { settingsTag: used.caller.settingsTag, authorization: used.authorization });
    },
    // The directory first (a name nobody provisioned never gets an object), then the motebit's own grants.
    handleOAuth: async (request, urls, fleetName, source) => {
      await fleetCaller(env, name, { fresh: false });
      return fleetStub(env, name).fleetHandleOAuth(request, urls, fleetName, source);
    },
    // The same: an unknown name is 404 before any object is touched.
    handleLog: async (query) => {
      await fleetCaller(env, name, { fresh: false });
      return fleetStub(env, name).fleetHandleLog(query);
    },
    discovery: async (urls, fleetName) => {
      await fleetCaller(env, name, { fresh: false });
      return discoveryOf(await fleetStub(env, name).fleetDiscovery(urls, fleetName), name);
    },
  };
}
