// Which Durable Object serves which fleet name (the keys are the RPC contract's: durable-objects/object-rpc.ts).
import type { EdgeEnv } from "./env.js";
import { readSetting } from "../src/index.js";
import { FLEET_DIRECTORY_KEY, FLEET_MOTEBIT_PREFIX } from "../durable-objects/object-rpc.js";

export function fleetMotebitKey(name: string): string {
  return FLEET_MOTEBIT_PREFIX + name;
}

export function fleetStub(env: EdgeEnv, name: string) {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName(fleetMotebitKey(name)));
}

export function directoryStub(env: EdgeEnv) {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName(FLEET_DIRECTORY_KEY));
}

/** MOTEBIT_FLEET_TOKEN, or null when the deployment runs no fleet (every /m/… and /fleet/… request is then 404). */
export function fleetToken(env: EdgeEnv): string | null {
  return readSetting("fleetToken", { env });
}
