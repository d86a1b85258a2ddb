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

  it("a cold heap still growing at the planned end passes once the latest window is past it; a leak fails in every window", () => {
    // EVIDENCE_ONLY=flood on a fresh Node host: the heap grows until V8 settles its size, here late in the flood.
    const baseline = Array.from({ length: 21 }, () => 127);
    const cold = [127, 128, 129, 130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140, 141, 146, 151, 156, 161, 166, 171];
    const planned = judgeFlood(baseline, cold);
    expect([planned.level, planned.tail.length]).toEqual([false, 7]);
    const settled = [...cold, 150, 150, 151, 150, 150, 151, 150];
    expect(judgeFlood(baseline, settled, planned.tail.length).level).toBe(true);
    const leak = [...cold, 176, 181, 186, 191, 196, 201, 206, 211, 216, 221];
    for (let end = cold.length; end <= leak.length; end++) expect(judgeFlood(baseline, leak.slice(0, end), planned.tail.length).level).toBe(false);
  });
});
