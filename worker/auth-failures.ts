// Failed authentication at the edge's /mcp, per source (issue #42): a bad token is refused here in the Worker and
// never reaches the Durable Object, so the count cannot live in the one object (a bad-token flood would queue in
// front of every real caller). Cloudflare's Workers Rate Limiting binding (wrangler.toml [[ratelimits]]
// AUTH_FAILURES) counts them instead, keyed on CF-Connecting-IP (caller-source.ts), and is asked only on a 401.
// When it says a source is over, this isolate remembers that source for one period and answers its /mcp requests
// 429 + Retry-After before any credential work; an isolate that has not seen it yet learns on that source's next
// failure there. A request whose source is not remembered (every request of a caller who never failed) costs one
// lookup in a small bounded map, no binding call. Without the binding nothing is limited.
import { BoundedCache, type FailedAuthLimiter, type RateDecision } from "../src/index.js";
import type { EdgeEnv } from "./env.js";

/** The binding's `simple.period` in wrangler.toml (it exposes no reset time: a refused source waits a whole period). */
export const AUTH_FAILURES_PERIOD_SECONDS = 60;
/** Sources remembered at once per isolate; past it the least recent is forgotten (it meets the binding again on its next failure). */
const MAX_REMEMBERED = 10_000;
const OK: RateDecision = { ok: true };

export function authFailureLimiter(now: () => number = Date.now): FailedAuthLimiter<EdgeEnv> {
  const refusedUntil = new BoundedCache<number>(MAX_REMEMBERED);
  return {
    admit(source) {
      const until = refusedUntil.get(source);
      if (until === undefined) return OK;
      const leftMs = until - now();
      if (leftMs <= 0) {
        refusedUntil.delete(source);
        return OK;
      }
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(leftMs / 1000)) };
    },
    async failed(source, env) {
      const binding = env.AUTH_FAILURES;
      if (binding === undefined) return;
      const { success } = await binding.limit({ key: `mcp-auth-failure:${source}` });
      if (success) return;
      refusedUntil.set(source, now() + AUTH_FAILURES_PERIOD_SECONDS * 1000);
    },
  };
}
