import { describe, expect, it } from "vitest";
import { RateLimiter } from "../../../src/callers/rate-limit.js";
import { memorySql } from "../helpers/sqlite.js";
import { fakeClock } from "./fake-clock.js";

describe("per-caller token bucket", () => {
  it("allows a burst of the per-minute size, then says when to retry", () => {
    const clock = fakeClock();
    const r = new RateLimiter(memorySql(), clock, 6); // one token per 10 s
    r.migrate();
    for (let i = 0; i < 6; i++) expect(r.take("alice")).toEqual({ ok: true });
    expect(r.take("alice")).toEqual({ ok: false, retryAfterSeconds: 10 });
    clock.advance(4_000);
    expect(r.take("alice")).toEqual({ ok: false, retryAfterSeconds: 6 });
    clock.advance(6_000);
    expect(r.take("alice")).toEqual({ ok: true });
    expect(r.take("alice").ok).toBe(false);
  });

  it("keeps one bucket per caller", () => {
    const r = new RateLimiter(memorySql(), fakeClock(), 1);
    r.migrate();
    expect(r.take("alice").ok).toBe(true);
    expect(r.take("alice").ok).toBe(false);
    expect(r.take("bob").ok).toBe(true);
  });

  it("refills to the burst size, not beyond", () => {
    const clock = fakeClock();
    const r = new RateLimiter(memorySql(), clock, 2);
    r.migrate();
    r.take("alice");
    clock.advance(10 * 60_000);
    expect(r.take("alice").ok).toBe(true);
    expect(r.take("alice").ok).toBe(true);
    expect(r.take("alice").ok).toBe(false);
  });

  it("0 disables limiting", () => {
    const r = new RateLimiter(memorySql(), fakeClock(), 0);
    r.migrate();
    for (let i = 0; i < 1000; i++) expect(r.take("alice").ok).toBe(true);
  });
});
