// Failed authentication at /mcp is rate-limited per source (issue #42): every 401 from the auth layer counts
// against the caller's address as the host saw it, and past the budget that source's requests to /mcp are answered
// 429 + Retry-After before any credential is checked, its valid ones too, until the budget refills. Successes are
// never counted. Each host picks its limiter once, when it builds the app: Node's failedAuthBuckets (one SQL token
// bucket per source), the edge's failedAuthByService over the Workers Rate Limiting binding (worker/auth-failures.ts).
// Both run here in the core, so a request's gate never calls back into its host.
import { BoundedCache } from "../bounded/bounded-cache.js";
import type { RateDecision, RateLimiter } from "../callers/rate-limit.js";
import { jsonResponse } from "./responses.js";

/** 30 failures a minute per source, all of them at once (the bucket's capacity is the burst). */
export const AUTH_FAILURES_PER_SOURCE_PER_MINUTE = 30;

export interface FailedAuthLimiter {
  /** Before any credential work: whether `source` may be heard now. */
  admit(source: string): RateDecision | Promise<RateDecision>;
  /** After a 401 from the auth layer: count one failure against `source` (the 401 is answered all the same). */
  failed(source: string): void | Promise<void>;
}

/** The Node host's limiter: the same SQL token bucket as MCP callers and OAuth sources (rate-limit.ts). */
export function failedAuthBuckets(limiter: RateLimiter): FailedAuthLimiter {
  const key = (source: string) => `mcp-auth-failure:${source}`;
  return {
    admit: (source) => limiter.peek(key(source)),
    failed: (source) => void limiter.take(key(source)),
  };
}

/** A counting service that says, per key, whether one more event is within its budget (the Workers Rate Limiting binding's shape). */
export interface RateLimitService {
  limit(o: { key: string }): Promise<{ success: boolean }>;
}

/** Sources remembered at once; past it the least recent is forgotten (it meets the service again on its next failure). */
const MAX_REMEMBERED = 10_000;
const OK: RateDecision = { ok: true };

/**
 * A limiter over a counting service that is asked only on a 401. When it says a source is over, this limiter
 * remembers that source for one `periodSeconds` (the service exposes no reset time: a refused source waits a whole
 * period) and refuses it before any credential work. A request whose source is not remembered (every request of a
 * caller who never failed) costs one lookup in a small bounded map, no service call.
 */
export function failedAuthByService(service: RateLimitService, periodSeconds: number, now: () => number = Date.now): FailedAuthLimiter {
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
    async failed(source) {
      const { success } = await service.limit({ key: `mcp-auth-failure:${source}` });
      if (!success) refusedUntil.set(source, now() + periodSeconds * 1000);
    },
  };
}

export function tooManyFailuresResponse(retryAfterSeconds: number): Response {
  const res = jsonResponse(429, {
    error: "too many failed authentications from this source",
    hint: `wait Retry-After seconds (${retryAfterSeconds}), then retry with a valid credential`,
  });
  res.headers.set("Retry-After", String(retryAfterSeconds));
  return res;
}
