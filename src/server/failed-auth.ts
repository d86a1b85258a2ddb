// Failed authentication at /mcp is rate-limited per source (issue #42): every 401 from the auth layer counts
// against the caller's address as the host saw it, and past the budget that source's requests to /mcp are answered
// 429 + Retry-After before any credential is checked, its valid ones too, until the budget refills. Successes are
// never counted. The core only calls this port; each host fills it (Node: failedAuthBuckets below, one SQL token
// bucket per source; the edge: Cloudflare's Workers Rate Limiting binding, worker/auth-failures.ts).
import type { RateDecision, RateLimiter } from "../callers/rate-limit.js";
import { jsonResponse } from "./responses.js";

/** 30 failures a minute per source, all of them at once (the bucket's capacity is the burst). */
export const AUTH_FAILURES_PER_SOURCE_PER_MINUTE = 30;

export interface FailedAuthLimiter<E = unknown> {
  /** Before any credential work: whether `source` may be heard now. */
  admit(source: string, env: E): RateDecision | Promise<RateDecision>;
  /** After a 401 from the auth layer: count one failure against `source` (the 401 is answered all the same). */
  failed(source: string, env: E): void | Promise<void>;
}

/** The Node host's limiter: the same SQL token bucket as MCP callers and OAuth sources (rate-limit.ts). */
export function failedAuthBuckets(limiter: RateLimiter): FailedAuthLimiter {
  const key = (source: string) => `mcp-auth-failure:${source}`;
  return {
    admit: (source) => limiter.peek(key(source)),
    failed: (source) => void limiter.take(key(source)),
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
