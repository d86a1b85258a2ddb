// The docs runner: every fenced block marked ```sh runnable in README.md and docs/*.md runs as written, as a new user
// would run it from a fresh clone after `npm ci` (run-doc-block.ts: a copy of the checkout, a fresh HOME, free ports
// in place of the documented ones, nothing left running). Blocks run on their own ports, so in parallel with
// anything else on the machine, `npm start` and another copy of this suite included.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO } from "../local/helpers/local-cli.js";
import { runDocBlock } from "./run-doc-block.js";

const MARKER = /^```sh runnable\n([\s\S]*?)^```$/gm;
const pages = ["README.md", ...readdirSync(join(REPO, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const blocks = pages.flatMap((page) => [...readFileSync(join(REPO, page), "utf8").matchAll(MARKER)].map((m, i) => ({ page, n: i + 1, script: m[1] })));

describe("runnable blocks in the docs", () => {
  it("finds the runnable blocks (a runner that finds none checks nothing)", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
  });

  it("README's try-it block is among them", () => {
    expect(blocks.some((b) => b.page === "README.md" && b.script.includes("cp .dev.vars.example .dev.vars"))).toBe(true);
  });

  for (const b of blocks) {
    it(`${b.page} block ${b.n} runs as written`, async () => {
      const r = await runDocBlock(b.script);
      expect(r.code, r.output).toBe(0);
    }, 200_000);
  }
});
