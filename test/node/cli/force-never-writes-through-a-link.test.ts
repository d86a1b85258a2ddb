// `init --force` and `create --force` write into folders that may already hold something: a symbolic link planted
// where any file of theirs goes (not only a secret) is refused before anything is written, and its target is untouched.
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

function planted(dir: string, name: string): string {
  const target = join(tempDir(), "theirs.txt");
  writeFileSync(target, "THEIRS\n");
  symlinkSync(target, join(dir, name));
  return target;
}

it("create --force refuses a symlinked README.md and package.json: their targets keep their text, no key is made", async () => {
  for (const name of ["README.md", "package.json"]) {
    const dir = tempDir();
    const target = planted(dir, name);
    const r = await runCli(["create", dir, "--force"]);
    expect([r.code, r.stderr]).toEqual([1, `motebit-local create: ${join(dir, name)} is a symbolic link; refusing to write a file through it (remove it first)\n`]);
    expect(readFileSync(target, "utf8")).toBe("THEIRS\n");
    expect(existsSync(join(dir, "motebit.key"))).toBe(false);
  }
});

it("create --force refuses a symlinked src/ folder: nothing is written into the folder it points to", async () => {
  const dir = tempDir();
  const elsewhere = tempDir();
  symlinkSync(elsewhere, join(dir, "src"));
  const r = await runCli(["create", dir, "--force"]);
  expect([r.code, r.stderr]).toEqual([1, `motebit-local create: ${join(dir, "src")} is a symbolic link; refusing to write files through it (remove it first)\n`]);
  expect(existsSync(join(elsewhere, "index.ts"))).toBe(false);
});

it("create --fleet --force refuses a symlinked wrangler.toml", async () => {
  const dir = tempDir();
  const target = planted(dir, "wrangler.toml");
  const r = await runCli(["create", dir, "--fleet", "--force"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("wrangler.toml is a symbolic link; refusing to write a file through it");
  expect(readFileSync(target, "utf8")).toBe("THEIRS\n");
});

it("init --force refuses a symlinked motebit.md before the key is replaced", async () => {
  const dir = join(tempDir(), "m");
  mkdirSync(dir);
  writeFileSync(join(dir, "motebit.key"), "11".repeat(32) + "\n", { mode: 0o600 });
  const target = planted(dir, "motebit.md");
  const r = await runCli(["init", "--dir", dir, "--force"]);
  expect([r.code, r.stderr]).toEqual([1, `motebit-local init: ${join(dir, "motebit.md")} is a symbolic link; refusing to write a file through it (remove it first)\n`]);
  expect(readFileSync(target, "utf8")).toBe("THEIRS\n");
  expect(readFileSync(join(dir, "motebit.key"), "utf8")).toBe("11".repeat(32) + "\n");
});
