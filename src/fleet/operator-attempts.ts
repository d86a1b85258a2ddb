// Failed operator tokens at /fleet/ are rate-limited per source like MCP callers: the same token bucket
// (src/callers/rate-limit.ts, MOTEBIT_RATE_LIMIT per minute), kept in the fleet directory's SQL. A failed token takes
// one; while a source's bucket is empty every request from it is refused, a right token too, so a guesser learns
// nothing more until it refills. A right token takes none: the operator's own work is never slowed.
import type { RateDecision, RateLimiter } from "../callers/rate-limit.js";

/** Whether a request from `source` may be answered now; a failed token is counted against the source. */
export function operatorAttempt(limiter: RateLimiter, source: string, tokenOk: boolean): RateDecision {
  const key = `fleet-operator:${source}`;
  const now = limiter.peek(key);
  if (!now.ok) return now;
  if (!tokenOk) limiter.take(key);
  return { ok: true };
}
