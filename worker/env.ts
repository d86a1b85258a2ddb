// The Worker's bindings: everything the Durable Object reads, and the namespace of the objects themselves.
import type { MotebitObject } from "../durable-objects/motebit-object.js";
import type { ObjectEnv } from "../durable-objects/object-env.js";

export type EdgeEnv = ObjectEnv & {
  MOTEBIT: DurableObjectNamespace<MotebitObject>;
  /** Workers Rate Limiting (wrangler.toml [[ratelimits]]): failed authentications per source (worker/auth-failures.ts). Optional. */
  AUTH_FAILURES?: { limit(o: { key: string }): Promise<{ success: boolean }> };
};
