// Waiting work is counted per caller under a host ceiling: a caller at its limit is refused, the next caller is not,
// giving back frees the slot, and a ceiling a single caller could reach alone is refused at construction.
import { describe, expect, it } from "vitest";
import { CallerQuota } from "../../../src/mcp/engine/caller-quota.js";

describe("CallerQuota", () => {
  it("refuses a caller at its own limit while another caller still gets a slot", () => {
    const q = new CallerQuota(2, 5, "things waiting");
    expect([q.take("a"), q.take("a")]).toEqual([null, null]);
    expect(q.take("a")).toBe("too many things waiting for this caller (limit 2)");
    expect(q.take("b")).toBeNull();
    q.give("a");
    expect(q.take("a")).toBeNull();
  });

  it("refuses everyone at the host ceiling, which takes several callers to reach", () => {
    const q = new CallerQuota(2, 3, "things waiting");
    expect([q.take("a"), q.take("a"), q.take("b")]).toEqual([null, null, null]);
    expect(q.take("c")).toBe("too many things waiting on this host (limit 3)");
    q.give("b");
    expect(q.take("c")).toBeNull();
  });

  it("giving back more than was taken changes nothing", () => {
    const q = new CallerQuota(1, 2, "x");
    q.give("a");
    expect(q.take("a")).toBeNull();
    expect(q.heldBy("a")).toBe(1);
  });

  it("a per-caller limit at or above the ceiling is refused", () => {
    expect(() => new CallerQuota(4, 4, "x")).toThrow(/below the ceiling/);
  });
});
