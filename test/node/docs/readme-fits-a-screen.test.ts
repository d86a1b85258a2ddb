// The README is for someone who just arrived: short enough to read at once; the reference lives in docs/.
import { describe, expect, it } from "vitest";
import { read } from "../helpers/markdown.js";

describe("README.md", () => {
  it("is at most 250 lines", () => {
    const lines = read("README.md").replace(/\n$/, "").split("\n").length;
    expect(lines).toBeLessThanOrEqual(250);
  });
});
