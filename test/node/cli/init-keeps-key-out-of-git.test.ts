// init inside a git work tree: the key is ignored by default, and a .gitignore that does not cover it gets a warning.
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { GITIGNORE_TEXT } from "../../../local-stdio/src/key-out-of-git.js";
import { runCli, tempDir } from "./run-cli.js";

// every test spawns the real CLI (node + tsx start-up), which is slow on a busy machine
vi.setConfig({ testTimeout: 90_000 });

function gitRepo(): string {
  const dir = tempDir();
  execFileSync("git", ["init", "-q", dir]);
  return dir;
}
const untracked = (repo: string) =>
  execFileSync("git", ["status", "--porcelain", "--untracked-files=all"], { cwd: repo, encoding: "utf8" }).split("\n").filter(Boolean);

describe("motebit-local init keeps the key out of git", () => {
  it("the README's `init --dir ./me` inside a repository: me/.gitignore ignores the key, git sees only the public files", async () => {
    const repo = gitRepo();
    const r = await runCli(["init", "--dir", "./me"], { cwd: repo });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(readFileSync(join(repo, "me", ".gitignore"), "utf8")).toBe(GITIGNORE_TEXT);
    expect(r.stdout).toContain("  .gitignore     ./me/.gitignore  (keeps motebit.key and .motebit/ out of git)");
    expect(untracked(repo).sort()).toEqual(["?? me/.gitignore", "?? me/motebit.md"]);
  });

  it("this repository ignores *.key wherever init puts one", () => {
    const root = new URL("../../../", import.meta.url).pathname;
    // check-ignore exits 0 (no throw) when the path is ignored; the path need not exist
    for (const path of ["me/motebit.key", "anywhere/else.key"]) execFileSync("git", ["check-ignore", "-q", "--no-index", path], { cwd: root });
  });

  it("an existing .gitignore that does not cover the key is left alone, and init warns", async () => {
    const repo = gitRepo();
    writeFileSync(join(repo, ".gitignore"), "node_modules/\n");
    const r = await runCli(["init", "--dir", repo]);
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(join(repo, ".gitignore"), "utf8")).toBe("node_modules/\n");
    expect(r.stderr).toMatch(/^motebit-local init: warning: .*motebit\.key is inside a git work tree and not ignored: add motebit\.key to .*\.gitignore, or keep your motebit outside the repository \(e\.g\. --dir ~\/motebit\)\n$/);
    expect(untracked(repo)).toContain("?? motebit.key");
  });
});
