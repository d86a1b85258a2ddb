// The edge backend: settings from the Worker's env, state in the deployment's one Durable Object.
import { ObjectBackend, readHostSettings, type ServerConfig, StartupError } from "../src/index.js";
import type { EdgeEnv } from "./env.js";

/** /health and /mcp serve this deployment's motebit: one object, one name. */
export const MOTEBIT_OBJECT_NAME = "motebit";

export function motebitStub(env: EdgeEnv) {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName(MOTEBIT_OBJECT_NAME));
}

// Per env object, so an isolate parses settings once and asks the object who it is once.
const backends = new WeakMap<EdgeEnv, ObjectBackend>();

/** Throws StartupError when the deployment's settings are malformed (the app answers 503 with why). */
export function durableObjectBackend(env: EdgeEnv): ObjectBackend {
  let backend = backends.get(env);
  if (!backend) backends.set(env, (backend = new ObjectBackend(deploymentConfig(env), env.MOTEBIT, MOTEBIT_OBJECT_NAME)));
  return backend;
}

const configs = new WeakMap<EdgeEnv, ServerConfig | StartupError>();

/** The deployment's settings, parsed once per env object (fleet motebits share its origins, limits and relay trust). */
export function deploymentConfig(env: EdgeEnv): ServerConfig {
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
  if (config instanceof StartupError) throw config;
  return config;
}
