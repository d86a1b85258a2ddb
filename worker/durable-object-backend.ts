// The edge backend: settings from the Worker's env, state in the deployment's one Durable Object.
import { type Discovery, readHostSettings, type ServerBackend, type ServerConfig, type ServerIdentity, StartupError, UnknownMotebitError } from "../src/index.js";
import type { EdgeEnv } from "./env.js";
import type { DiscoveryAnswer } from "../durable-objects/object-rpc.js";

/** /health and /mcp serve this deployment's motebit: one object, one name. */
export const MOTEBIT_OBJECT_NAME = "motebit";

export function motebitStub(env: EdgeEnv) {
  return env.MOTEBIT.get(env.MOTEBIT.idFromName(MOTEBIT_OBJECT_NAME));
}

// Per env object, so an isolate parses settings once and asks the object who it is once.
const backends = new WeakMap<EdgeEnv, ServerBackend>();

export function durableObjectBackend(env: EdgeEnv): ServerBackend {
  let backend = backends.get(env);
  if (!backend) backends.set(env, (backend = build(env)));
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

function build(env: EdgeEnv): ServerBackend {
  // Only a value is cached, never a pending promise: a promise must not outlive the request that made it.
  let identity: ServerIdentity | undefined;
  const stub = () => motebitStub(env);
  return {
    config: () => deploymentConfig(env),
    async identity() {
      if (identity) return identity;
      const answer = await stub().identity();
      if (!answer.ok) throw new StartupError(answer.error);
      return (identity = { motebitId: answer.motebitId, publicKeyHex: answer.publicKeyHex });
    },
    handleMcp: (call) => stub().handleMcp(call),
    handleOAuth: (request, urls, _fleetName, source) => stub().handleOAuth(request, urls, source),
    handleLog: (query) => stub().handleLog(query),
    discovery: async (urls) => discoveryOf(await stub().discovery(urls)),
  };
}

/** The object's answer as the app expects it: a motebit that cannot start is a StartupError, an unknown one 404. */
export function discoveryOf(answer: DiscoveryAnswer, name = ""): Discovery {
  if (answer.ok) return answer.value;
  if (answer.status === 404) throw new UnknownMotebitError(name);
  throw new StartupError(answer.error);
}
