// init keeps the private key out of git by default: a .gitignore beside it (unless one is there), and a warning
// when the key still sits un-ignored inside a git work tree (an existing .gitignore that does not cover it).
import { spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export const GITIGNORE_TEXT = "# written by motebit-local init: the private key and local state never go into git\nmotebit.key\n.motebit/\n";

/** Writes `<dir>/.gitignore` when there is none; returns its path, or null when one was already there. */
export function writeKeyGitignore(dir: string): string | null {
  const path = join(dir, ".gitignore");
  if (existsSync(path)) return null;
  writeFileSync(path, GITIGNORE_TEXT, { flag: "wx" });
  return path;
}

/**
 * True when `keyPath` is inside a git work tree and git would track it. False outside a work tree, when git
 * ignores it, or when git is not installed (then nothing can commit it by accident either).
 */
export function keyTrackableByGit(keyPath: string): boolean {
  const git = (...args: string[]) => spawnSync("git", args, { cwd: dirname(keyPath), stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
  const inside = git("rev-parse", "--is-inside-work-tree");
  if (inside.error || inside.status !== 0 || String(inside.stdout).trim() !== "true") return false;
  // check-ignore exits 0 when the path is ignored, 1 when it is not
  return git("check-ignore", "-q", "--", basename(keyPath)).status === 1;
}
