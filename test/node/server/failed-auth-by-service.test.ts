// The edge's failed-auth limiter (src/server/failed-auth.ts over the Workers Rate Limiting binding): the service is
// asked only on a failure, a source it refuses is refused by the limiter itself for one period (Retry-After counting
// down), then heard again; other sources are not touched.
import { describe, expect, it } from "vitest";
import { failedAuthByService, type RateLimitService } from "../../../src/server/failed-auth.js";

/** A service that allows `budget` events per key and counts every question. */
function countingService(budget: number): RateLimitService & { asked: number } {
  const seen = new Map<string, number>();
  return {
    asked: 0,
    async limit({ key }) {
      this.asked++;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      return { success: n <= budget };
    },
  };
}

describe("failed authentication limited over a counting service", () => {
  it("never asks the service for a source that has not failed", async () => {
    const service = countingService(1);
    const limiter = failedAuthByService(service, 60);
    for (let i = 0; i < 5; i++) expect(await limiter.admit("198.51.100.1")).toEqual({ ok: true });
    expect(service.asked).toBe(0);
  });

  it("refuses a source the service says is over for one period, then hears it again", async () => {
    let now = 1_000_000;
    const limiter = failedAuthByService(countingService(2), 60, () => now);
    await limiter.failed("198.51.100.7");
    await limiter.failed("198.51.100.7");
    expect(await limiter.admit("198.51.100.7")).toEqual({ ok: true });
    await limiter.failed("198.51.100.7");
    expect(await limiter.admit("198.51.100.7")).toEqual({ ok: false, retryAfterSeconds: 60 });
    expect(await limiter.admit("203.0.113.9")).toEqual({ ok: true });
    now += 59_500;
    expect(await limiter.admit("198.51.100.7")).toEqual({ ok: false, retryAfterSeconds: 1 });
    now += 500;
    expect(await limiter.admit("198.51.100.7")).toEqual({ ok: true });
  });
});
