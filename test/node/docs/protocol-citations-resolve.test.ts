// Code and docs cite the wire formats by section ("docs/protocol.md §5"). Every such citation names a file that
// is in the repository and a section that file has; a bare citation with no file behind it is refused.
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { read, repositoryTextFiles, ROOT } from "../helpers/markdown.js";

// "<something>protocol[.md] §N[.M]", in any case: the cited file, then the section.
const CITATION = /([\w./-]*protocol(?:\.md)?)\s*\u00a7\s*(\d+(?:\.\d+)?)/gi;

/** Section numbers a page defines: headings like "## 5. Signed bearer token" or "### 9.1 What …". */
function sections(md: string): Set<string> {
  return new Set([...md.matchAll(/^#{2,6}\s+(\d+(?:\.\d+)?)\.?\s/gm)].map((m) => m[1]));
}

describe("protocol citations", () => {
  it("every one points at an existing file and one of its sections", () => {
    const broken: string[] = [];
    let count = 0;
    for (const file of repositoryTextFiles()) {
      const text = read(file);
      if (text.includes("\0")) continue;
      for (const m of text.matchAll(CITATION)) {
        count++;
        const [, cited, section] = m;
        const where = `${file}: "${m[0]}"`;
        if (!/\.md$/i.test(cited)) {
          broken.push(`${where} names no file (cite docs/protocol.md)`);
          continue;
        }
        const candidates = [join(dirname(file), cited), cited].filter((p) => existsSync(join(ROOT, p)));
        if (candidates.length === 0) broken.push(`${where}: ${cited} does not exist`);
        else if (!sections(read(candidates[0])).has(section)) broken.push(`${where}: ${cited} has no section ${section}`);
      }
    }
    expect(broken).toEqual([]);
    expect(count).toBeGreaterThan(0);
  });
});
