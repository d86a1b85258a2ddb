// The docs runner: every fenced block marked ```sh runnable in README.md and docs/*.md runs as written, with bash
// (-e, -u, pipefail), from the repository root with a fresh HOME (blocks write under ~, never into the checkout);
// `npx motebit-local` is this checkout's. A block runs in a process group of its own, killed whole when bash exits
// (npx does not pass SIGTERM on to the server it started), so a server a block leaves in the background goes with
// it. Blocks use the documented ports, so they run one after another. npm keeps this machine's cache (the fresh HOME
// would otherwise send every `npm install` in a block to the registry for packages `npm ci` already fetched).
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cleanEnv, REPO } from "../local/helpers/local-cli.js";

const MARKER = /^```sh runnable\n([\s\S]*?)^```$/gm;
const pages = ["README.md", ...readdirSync(join(REPO, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`)];
const blocks = pages.flatMap((page) => [...readFileSync(join(REPO, page), "utf8").matchAll(MARKER)].map((m, i) => ({ page, n: i + 1, script: m[1] })));

function runBlock(script: string): Promise<{ code: number | null; output: string }> {
  const home = mkdtempSync(join(tmpdir(), "motebit-docs-home-"));
  return new Promise((resolve) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", script], {
      cwd: REPO,
      detached: true,
      env: cleanEnv({
        HOME: home,
        PATH: `${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
        npm_config_update_notifier: "false",
        npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* the group is gone */
      }
    };
    const timer = setTimeout(() => group("SIGKILL"), 180_000);
    let code: number | null = null;
    child.on("exit", (c) => {
      code = c;
      group("SIGTERM");
    });
    child.on("close", () => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describe("runnable blocks in the docs", () => {
  it("finds the runnable blocks (a runner that finds none checks nothing)", () => {
    expect(blocks.length).toBeGreaterThanOrEqual(1);
  });

  for (const b of blocks) {
    it(`${b.page} block ${b.n} runs as written`, async () => {
      const r = await runBlock(b.script);
      expect(r.code, r.output).toBe(0);
    }, 200_000);
  }
});
