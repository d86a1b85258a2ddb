// The edge backend: settings from the Worker's env, state in the deployment's one Durable Object.
import { ObjectBackend, readHostSettings, type ServerConfig, StartupError } from "../src/index.js";
import type { EdgeEnv } from "./env.js";

/** /health and /mcp serve this deployment's motebit: one object, one name. */
export const MOTEBIT_OBJECT_NAME = "motebit";

export function motebitStub(env: EdgeEnv) {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName(MOTEBIT_OBJECT_NAME));
}

/**
 * Built once per env with the Worker's app (create-worker.ts), so it asks the object who it is once. Malformed
 * settings do not throw here: the backend keeps the StartupError and the app answers every request 503 with why.
 */
export function durableObjectBackend(env: EdgeEnv): ObjectBackend {
  return new ObjectBackend(deploymentSettings(env), env.MOTEBIT, MOTEBIT_OBJECT_NAME);
}

const configs = new WeakMap<EdgeEnv, ServerConfig | StartupError>();

/** The deployment's settings, parsed once per env object (fleet motebits share its origins, limits and relay trust). */
export function deploymentConfig(env: EdgeEnv): ServerConfig {
  const config = deploymentSettings(env);
  if (config instanceof StartupError) throw config;
  return config;
}

function deploymentSettings(env: EdgeEnv): ServerConfig | StartupError {
  let config = configs.get(env);
  if (config === undefined) {
    try {
      config = readHostSettings({ env: env as unknown as Record<string, unknown> }, { host: "edge", hasAiBinding: env.AI !== undefined }).server;
    } catch (e) {
      if (!(e instanceof StartupError)) throw e;
      config = e;
    }
    configs.set(env, config);
  }
  return config;
}
