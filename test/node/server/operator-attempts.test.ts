// The fleet operator's gate over the shared token bucket: a failed token takes one from its source's bucket, a right
// one takes none; while the bucket is empty every request from that source is refused, the right token too, until
// it refills; peek never writes.
import { expect, it } from "vitest";
import { operatorAttempt } from "../../../src/fleet/operator-attempts.js";
import { RateLimiter } from "../../../src/callers/rate-limit.js";
import { memorySql } from "../helpers/sqlite.js";
import { fakeClock } from "./fake-clock.js";

it("failed tokens exhaust the source's bucket; then even the right token waits, and another source does not", () => {
  const clock = fakeClock();
  const limiter = new RateLimiter(memorySql(), clock, 6); // one token per 10 s
  limiter.migrate();
  for (let i = 0; i < 6; i++) expect(operatorAttempt(limiter, "198.51.100.7", false)).toEqual({ ok: true });
  expect(operatorAttempt(limiter, "198.51.100.7", false)).toEqual({ ok: false, retryAfterSeconds: 10 });
  expect(operatorAttempt(limiter, "198.51.100.7", true)).toEqual({ ok: false, retryAfterSeconds: 10 });
  expect(operatorAttempt(limiter, "203.0.113.9", true)).toEqual({ ok: true });
  clock.advance(4_000);
  expect(operatorAttempt(limiter, "198.51.100.7", true)).toEqual({ ok: false, retryAfterSeconds: 6 });
  clock.advance(6_000);
  // Refilled by one: the right token is served and takes nothing, so a wrong one right after is still answered.
  expect(operatorAttempt(limiter, "198.51.100.7", true)).toEqual({ ok: true });
  expect(operatorAttempt(limiter, "198.51.100.7", true)).toEqual({ ok: true });
  expect(operatorAttempt(limiter, "198.51.100.7", false)).toEqual({ ok: true });
  expect(operatorAttempt(limiter, "198.51.100.7", false)).toEqual({ ok: false, retryAfterSeconds: 10 });
});

it("the right token never takes from the bucket, and a limit of 0 turns the gate off", () => {
  const limiter = new RateLimiter(memorySql(), fakeClock(), 1);
  limiter.migrate();
  for (let i = 0; i < 50; i++) expect(operatorAttempt(limiter, "a", true)).toEqual({ ok: true });
  expect(limiter.peek("fleet-operator:a")).toEqual({ ok: true });
  const off = new RateLimiter(memorySql(), fakeClock(), 0);
  off.migrate();
  for (let i = 0; i < 50; i++) expect(operatorAttempt(off, "a", false)).toEqual({ ok: true });
});
