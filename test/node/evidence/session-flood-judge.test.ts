// The session-flood judge counts only growth beyond what the same run's baseline flood (GET /health, no motebit
// state) grew by itself: the failing main run from issue 19 (workerd growing under any load) passes, a flood that
// keeps growing while its baseline is flat fails.
import { describe, expect, it } from "vitest";
import { judgeFlood } from "../../../scripts/evidence/scenarios.js";

describe("judgeFlood", () => {
  it("workerd's own growth, shown by the baseline, is not counted against the motebit", () => {
    // Issue 19's run: 12,000 GET /health grew workerd 220 → 353 MB; the session flood's tail 512 → 569 MB.
    const baseline = [220, 232, 244, 256, 268, 280, 292, 304, 316, 328, 340, 353];
    const flood = [400, 420, 440, 460, 480, 495, 505, 512, 518, 526, 544, 569];
    const v = judgeFlood(baseline, flood);
    expect(v.level).toBe(true);
    expect([v.growth, v.baselineGrowth]).toEqual([51, 37]);
  });

  it("growth with a flat baseline is a leak", () => {
    const baseline = [220, 221, 220, 222, 221, 220, 221, 222, 221, 220, 221, 221];
    const flood = [300, 340, 380, 420, 460, 500, 540, 580, 620, 660, 700, 740];
    const v = judgeFlood(baseline, flood);
    expect(v.level).toBe(false);
    expect(v.excess).toBeGreaterThan(v.allowed);
  });
});
