// Every relative link in README.md and docs/ reaches an existing file, and its #anchor an existing heading.
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anchors, markdownPages, read, relativeLinks, resolveLink, ROOT } from "../helpers/markdown.js";

describe("links in README.md and docs/", () => {
  for (const page of markdownPages()) {
    it(`${page}: every relative link and anchor resolves`, () => {
      const broken: string[] = [];
      for (const target of relativeLinks(read(page))) {
        const { path, anchor } = resolveLink(page, target);
        if (!existsSync(join(ROOT, path))) broken.push(`${target}: no file ${path}`);
        else if (anchor !== null && path.endsWith(".md") && !anchors(read(path)).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${path}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
