import { describe, expect, it } from "vitest";
import { isAllowedOrigin } from "../../../src/settings/origin.js";

describe("origin allowlist", () => {
  const self = "https://motebit.example.workers.dev";
  it.each([
    [self, true],
    ["http://localhost:6274", true],
    ["https://127.0.0.1", true],
    ["http://[::1]:3000", true],
    ["https://app.example.com", true],
    ["https://APP.example.com:443", true],
    ["https://evil.example.com", false],
    ["http://app.example.com", false],
    ["http://localhost.evil.com", false],
    ["null", false],
    ["file://", false],
  ])("%s → %s", (origin, allowed) => {
    expect(isAllowedOrigin(origin, self, ["https://app.example.com"])).toBe(allowed);
  });

  it("an http server origin is the Host header's word, so it is not trusted (DNS rebinding)", () => {
    expect(isAllowedOrigin("http://evil.example:8787", "http://evil.example:8787", [])).toBe(false);
    expect(isAllowedOrigin("http://evil.example:8787", "http://evil.example:8787", ["http://evil.example:8787"])).toBe(true);
  });
});
