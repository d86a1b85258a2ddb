import { describe, expect, it } from "vitest";
import { ALL_SCOPES, isWithin, parseScope, scopeUnion } from "../../../src/policy/admission/oauth-scopes.js";

describe("OAuth scope strings", () => {
  it("gives a request naming no scope all four, as a grant before scopes had", () => {
    expect(parseScope(undefined)).toBe("motebit:read motebit:tools motebit:task motebit:remember");
    expect(parseScope("")).toBe(ALL_SCOPES);
    expect(parseScope("  ")).toBe(ALL_SCOPES);
  });

  it("writes a known scope string canonically: each once, in the one order", () => {
    expect(parseScope("motebit:task  motebit:read motebit:task")).toBe("motebit:read motebit:task");
  });

  it("refuses a string naming any scope it does not know", () => {
    expect(parseScope("motebit:read admin")).toBeNull();
    expect(parseScope("MOTEBIT:READ")).toBeNull();
  });

  it("narrows, never widens, and steps up to what is held plus what is needed", () => {
    expect(isWithin("motebit:read", "motebit:read motebit:task")).toBe(true);
    expect(isWithin("motebit:tools", "motebit:read motebit:task")).toBe(false);
    expect(scopeUnion("motebit:task", "motebit:read")).toBe("motebit:read motebit:task");
  });
});
