// The liveness plan both hosts follow: heartbeat every interval, re-register when stale (> 2 intervals), when
// the relay forgot us (404/410), when the announcement changed, and every 12 intervals; failures back off.
import { describe, expect, it } from "vitest";
import { backoffMs, INITIAL_LIVENESS, plan, record, timingsFor } from "../../../src/relay/liveness.js";

const MIN = 60_000;
const t = timingsFor(5 * MIN);
const FP = "announcement-1";

describe("the liveness plan at the default 5-minute heartbeat", () => {
  it("the issue's intervals: stale after 10 min, hourly re-register, backoff 5 s doubling to 5 min", () => {
    expect(t).toEqual({ heartbeatMs: 5 * MIN, staleMs: 10 * MIN, reregisterMs: 60 * MIN, backoffBaseMs: 5_000, backoffMaxMs: 5 * MIN });
    expect([1, 2, 3, 6, 7, 50].map((n) => backoffMs(n, t))).toEqual([5_000, 10_000, 20_000, 160_000, 5 * MIN, 5 * MIN]);
  });

  it("registers first, then heartbeats every 5 minutes, and re-registers on the hour", () => {
    expect(plan(INITIAL_LIVENESS, FP, 0, t)).toEqual({ action: "register", at: 0 });
    let s = record(INITIAL_LIVENESS, "register", "ok", FP, 0);
    expect(plan(s, FP, 1_000, t)).toEqual({ action: "heartbeat", at: 5 * MIN });
    for (let k = 1; k <= 11; k++) {
      expect(plan(s, FP, k * 5 * MIN, t).action).toBe("heartbeat");
      s = record(s, "heartbeat", "ok", FP, k * 5 * MIN);
    }
    expect(plan(s, FP, 55 * MIN, t)).toEqual({ action: "register", at: 60 * MIN });
  });

  it("re-registers at once when the relay forgot us, when the last success is over 10 minutes old, or the announcement changed", () => {
    const s = record(INITIAL_LIVENESS, "register", "ok", FP, 0);
    expect(plan(record(s, "heartbeat", "unknown_to_relay", FP, 5 * MIN), FP, 5 * MIN, t)).toEqual({ action: "register", at: 5 * MIN });
    expect(plan(s, FP, 10 * MIN + 1, t)).toEqual({ action: "register", at: 10 * MIN + 1 });
    expect(plan(s, "announcement-2", 1_000, t)).toEqual({ action: "register", at: 1_000 });
  });

  it("a failing relay is retried with growing waits, never in a hot loop, and a stale success turns retries into registrations", () => {
    let s = record(INITIAL_LIVENESS, "register", "ok", FP, 0);
    s = record(s, "heartbeat", "failed", FP, 5 * MIN);
    expect(plan(s, FP, 5 * MIN, t)).toEqual({ action: "heartbeat", at: 5 * MIN + 5_000 });
    s = record(s, "heartbeat", "failed", FP, 5 * MIN + 5_000);
    expect(plan(s, FP, 5 * MIN + 5_000, t)).toEqual({ action: "heartbeat", at: 5 * MIN + 15_000 });
    let now = 5 * MIN + 15_000;
    for (let i = 0; i < 6; i++) {
      s = record(s, plan(s, FP, now, t).action, "failed", FP, now);
      now = plan(s, FP, now, t).at;
    }
    expect(plan(s, FP, now, t).action).toBe("register");
    expect(now - (s.lastAttemptAt ?? 0)).toBe(5 * MIN);
    s = record(s, "register", "ok", FP, now);
    expect(plan(s, FP, now, t)).toEqual({ action: "heartbeat", at: now + 5 * MIN });
  });
});
