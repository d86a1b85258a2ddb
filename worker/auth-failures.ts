// Failed authentication at the edge's /mcp, per source (issue #42): a bad token is refused here in the Worker and
// never reaches the Durable Object, so the count cannot live in the one object (a bad-token flood would queue in
// front of every real caller). Cloudflare's Workers Rate Limiting binding (wrangler.toml [[ratelimits]]
// AUTH_FAILURES) counts them instead, keyed on CF-Connecting-IP (caller-source.ts), and is asked only on a 401; the
// core's failedAuthByService remembers, per isolate, a source it refused (src/server/failed-auth.ts). Without the
// binding nothing is limited.
import { failedAuthByService, type FailedAuthLimiter } from "../src/index.js";
import type { EdgeEnv } from "./env.js";

/** The binding's `simple.period` in wrangler.toml (it exposes no reset time: a refused source waits a whole period). */
export const AUTH_FAILURES_PERIOD_SECONDS = 60;

/** Built once per env, with its app: shared by the default motebit and the fleet's, so a source over its budget is over at each. */
export function authFailureLimiter(env: EdgeEnv): FailedAuthLimiter | undefined {
  return env.AUTH_FAILURES === undefined ? undefined : failedAuthByService(env.AUTH_FAILURES, AUTH_FAILURES_PERIOD_SECONDS);
}
