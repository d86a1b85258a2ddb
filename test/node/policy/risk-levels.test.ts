import { describe, expect, it } from "vitest";
import { parseRisk, riskName, RISK_NAMES } from "../../../src/policy/risk.js";

describe("risk levels", () => {
  it("parses the wire names and the integers 0-4", () => {
    RISK_NAMES.forEach((name, i) => {
      expect(parseRisk(name)).toBe(i);
      expect(parseRisk(i)).toBe(i);
      expect(riskName(i as 0)).toBe(name);
    });
  });

  it("refuses everything else rather than guessing", () => {
    for (const v of ["r0_read", "R5", "R2", "2", "", 5, -1, 1.5, Number.NaN, null, undefined, {}, [0], true]) {
      expect(parseRisk(v)).toBeNull();
    }
  });
});
