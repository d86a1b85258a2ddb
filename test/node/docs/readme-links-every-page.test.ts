// Every page in docs/ is reachable from the README: a page nobody links to is a page nobody finds.
import { describe, expect, it } from "vitest";
import { markdownPages, read, relativeLinks, resolveLink } from "../helpers/markdown.js";

describe("README.md", () => {
  it("links every docs/*.md page", () => {
    const linked = new Set(relativeLinks(read("README.md")).map((t) => resolveLink("README.md", t).path));
    const pages = markdownPages().filter((p) => p.startsWith("docs/"));
    expect(pages.length).toBeGreaterThan(0);
    expect(pages.filter((p) => !linked.has(p))).toEqual([]);
  });
});
