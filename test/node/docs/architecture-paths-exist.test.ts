// docs/architecture.md names the code's files and folders: its layout tree, its walks and its prose. Every path it
// names exists, a bare file name names a file somewhere in the repository, and every folder of src/ and of the
// hosts (worker/, durable-objects/, local-stdio/src/) stands in the layout tree, so the page cannot drift from the code.
import { existsSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { read, repositoryTextFiles, ROOT } from "../helpers/markdown.js";

const PAGE = "docs/architecture.md";
/** The folders whose every subfolder the layout tree must name. */
const LAID_OUT = ["src", "worker", "durable-objects", "local-stdio/src"];
/** A name column narrower than this holds a tree entry; a line indented further continues the description above it. */
const NAME_COLUMN = 20;

/** The layout's fenced tree: each entry's path, from its indent (two spaces a level) under the entries above it. */
function layoutPaths(md: string): string[] {
  const tree = /^## Layout\n[\s\S]*?^```\n([\s\S]*?)^```/m.exec(md);
  if (tree === null) throw new Error(`${PAGE} has no fenced tree under "## Layout"`);
  const parents: string[] = [];
  const out: string[] = [];
  for (const line of tree[1].split("\n")) {
    const m = /^( *)(\S+)/.exec(line);
    if (m === null || m[1].length >= NAME_COLUMN) continue;
    const depth = m[1].length / 2;
    parents.length = depth;
    const path = [...parents, m[2]].join("");
    out.push(path);
    if (m[2].endsWith("/")) parents[depth] = m[2];
  }
  return out;
}

/** Inline code that reads as a path: a known top folder with a slash, or a file name with a source extension. */
function namedPaths(md: string): { paths: string[]; bare: string[] } {
  const paths: string[] = [];
  const bare: string[] = [];
  for (const [, code] of md.replace(/^```[\s\S]*?^```/gm, "").matchAll(/`([^`\s]+)`/g)) {
    const path = code.replace(/[#:].*$/, "");
    if (/^(src|worker|durable-objects|local-stdio|test|bench|scripts|examples|data|docs|types)\/[\w./-]*$/.test(path)) paths.push(path);
    else if (/^[\w.-]+\.(ts|mjs|cjs|js|json|toml|md)$/.test(path)) bare.push(path);
  }
  return { paths, bare };
}

/** Every folder under `dir`, at any depth, as "dir/sub/". */
function folders(dir: string): string[] {
  const subs = readdirSync(join(ROOT, dir)).filter((f) => statSync(join(ROOT, dir, f)).isDirectory()).map((f) => `${dir}/${f}`);
  return subs.flatMap((sub) => [`${sub}/`, ...folders(sub)]);
}

describe("docs/architecture.md", () => {
  const md = read(PAGE);

  it("names only files and folders that exist, in its tree and in its text", () => {
    const { paths, bare } = namedPaths(md);
    const tree = layoutPaths(md);
    const names = new Set(repositoryTextFiles().map((f) => f.slice(f.lastIndexOf("/") + 1)));
    const missing = [...tree, ...paths].filter((p) => !existsSync(join(ROOT, p)));
    const unknownNames = bare.filter((n) => !names.has(n));
    expect({ missing, unknownNames }).toEqual({ missing: [], unknownNames: [] });
    expect(tree.length).toBeGreaterThan(40);
    expect(paths.length).toBeGreaterThan(40);
  });

  it("lays out every folder of the core and of the hosts", () => {
    const tree = new Set(layoutPaths(md));
    const unlisted = LAID_OUT.flatMap((dir) => [`${dir}/`, ...folders(dir)]).filter((f) => !tree.has(f));
    expect(unlisted).toEqual([]);
  });
});
