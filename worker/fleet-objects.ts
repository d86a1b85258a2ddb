// Which Durable Object serves which fleet name. Every key here contains ":", which neither a fleet name
// (a-z, 0-9, -) nor the default motebit's key ("motebit") does: no fleet name can address the default
// motebit's object, the directory, or another fleet motebit's object.
import type { EdgeEnv } from "./env.js";
import { readSetting } from "../src/index.js";

const FLEET_MOTEBIT_PREFIX = "fleet:";
const FLEET_DIRECTORY_KEY = "fleet-directory:";

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
