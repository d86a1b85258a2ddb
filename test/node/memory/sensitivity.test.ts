import { describe, expect, it } from "vitest";
import { SENSITIVITIES, parseSensitivity } from "../../../src/memory/sensitivity.js";

describe("parseSensitivity", () => {
  it("lists the levels lowest to highest", () => {
    expect(SENSITIVITIES).toEqual(["none", "personal", "medical", "financial", "secret"]);
    expect(Object.isFrozen(SENSITIVITIES)).toBe(true);
  });

  it("accepts exactly the lowercase names", () => {
    for (const s of SENSITIVITIES) expect(parseSensitivity(s)).toBe(s);
  });

  it("refuses anything else", () => {
    for (const v of ["Secret", "NONE", " none", "none ", "", "public", 0, 1, null, undefined, {}, ["none"], "none\u0000"]) {
      expect(parseSensitivity(v)).toBeNull();
    }
  });
});
