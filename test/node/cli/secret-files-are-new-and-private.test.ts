// Every secret file `create`, `create --fleet` and `init` write is a new file, mode 0600, renamed into place: an
// existing one with wider permissions is replaced, never written into (a second hard link to it keeps the old text),
// and a symbolic link where a secret goes is refused before anything secret is written.
import { existsSync, linkSync, lstatSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

const mode = (path: string) => statSync(path).mode & 0o777;

/** An existing 0644 file with a second hard link outside the project: written into, the link would change too. */
function wideFileWithLink(dir: string, name: string, text: string, outside: string): string {
  writeFileSync(join(dir, name), text, { mode: 0o644 });
  const link = join(outside, `${name}.link`);
  linkSync(join(dir, name), link);
  return link;
}

it("create --force replaces a 0644 .dev.vars and motebit.json with new 0600 files", async () => {
  const dir = tempDir();
  const outside = tempDir();
  const devLink = wideFileWithLink(dir, ".dev.vars", "OLD=1\n", outside);
  const jsonLink = wideFileWithLink(dir, "motebit.json", "{}\n", outside);
  const r = await runCli(["create", dir, "--force"]);
  expect(r.code, r.stderr).toBe(0);
  for (const f of [".dev.vars", "motebit.json", "motebit.key"]) expect(mode(join(dir, f)), f).toBe(0o600);
  expect(readFileSync(join(dir, ".dev.vars"), "utf8")).toMatch(/^MOTEBIT_PRIVATE_KEY=/);
  expect(readFileSync(devLink, "utf8")).toBe("OLD=1\n");
  expect(readFileSync(jsonLink, "utf8")).toBe("{}\n");
  expect(statSync(join(dir, ".dev.vars")).ino).not.toBe(statSync(devLink).ino);
});

it("create --force refuses a symlinked .dev.vars: nothing is written through it and no key is made", async () => {
  const dir = tempDir();
  const target = join(tempDir(), "elsewhere");
  writeFileSync(target, "THEIRS=1\n", { mode: 0o644 });
  writeFileSync(join(dir, "notes.txt"), "mine");
  symlinkSync(target, join(dir, ".dev.vars"));
  const r = await runCli(["create", dir, "--force"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`${join(dir, ".dev.vars")} is a symbolic link; refusing to write a secret through it (remove it first)`);
  expect(readFileSync(target, "utf8")).toBe("THEIRS=1\n");
  expect(existsSync(join(dir, "motebit.key"))).toBe(false);
});

it("create --force refuses a dangling symlink where motebit.key goes, and never creates its target", async () => {
  const dir = tempDir();
  const target = join(tempDir(), "planted.key");
  writeFileSync(join(dir, "notes.txt"), "mine");
  symlinkSync(target, join(dir, "motebit.key"));
  const r = await runCli(["create", dir, "--force"]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("motebit.key is a symbolic link; refusing to write a secret through it");
  expect(existsSync(target)).toBe(false);
});

it("create --force says when a kept motebit.key is readable by others", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "motebit.key"), "11".repeat(32) + "\n", { mode: 0o644 });
  const r = await runCli(["create", dir, "--force"]);
  expect(r.code, r.stderr).toBe(0);
  expect(r.stderr).toContain(`motebit-local create: warning: ${join(dir, "motebit.key")} is readable by other users; run: chmod 600`);
});

it("create --fleet --force adds the token to a 0644 .dev.vars by replacing it with a 0600 file, never appending", async () => {
  const dir = tempDir();
  const outside = tempDir();
  const link = wideFileWithLink(dir, ".dev.vars", "MOTEBIT_RATE_LIMIT=10", outside);
  const r = await runCli(["create", "--fleet", dir, "--force"]);
  expect(r.code, r.stderr).toBe(0);
  const token = readFileSync(join(dir, "fleet.token"), "utf8").trim();
  expect(readFileSync(join(dir, ".dev.vars"), "utf8")).toBe(`MOTEBIT_RATE_LIMIT=10\nMOTEBIT_FLEET_TOKEN=${token}\n`);
  expect(mode(join(dir, ".dev.vars"))).toBe(0o600);
  expect(mode(join(dir, "fleet.token"))).toBe(0o600);
  expect(readFileSync(link, "utf8")).toBe("MOTEBIT_RATE_LIMIT=10");
});

it("create --fleet refuses a symlinked fleet.token or .dev.vars and creates nothing through it", async () => {
  for (const name of ["fleet.token", ".dev.vars"]) {
    const dir = tempDir();
    const target = join(tempDir(), "planted");
    symlinkSync(target, join(dir, name));
    const r = await runCli(["create", "--fleet", dir, "--force"]);
    expect(r.code, name).toBe(1);
    expect(r.stderr).toContain(`${join(dir, name)} is a symbolic link; refusing to write a secret through it`);
    expect(existsSync(target)).toBe(false);
    expect(lstatSync(join(dir, name)).isSymbolicLink()).toBe(true);
  }
});

it("init --force refuses a symlinked motebit.key and replaces a 0644 one with a new 0600 file", async () => {
  const dir = tempDir();
  const target = join(tempDir(), "planted.key");
  symlinkSync(target, join(dir, "motebit.key"));
  const refused = await runCli(["init", "--dir", dir, "--force"]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("motebit.key is a symbolic link; refusing to write a secret through it");
  expect(existsSync(target)).toBe(false);

  const wide = tempDir();
  const link = wideFileWithLink(wide, "motebit.key", "22".repeat(32) + "\n", tempDir());
  const r = await runCli(["init", "--dir", wide, "--force"]);
  expect(r.code, r.stderr).toBe(0);
  expect(mode(join(wide, "motebit.key"))).toBe(0o600);
  expect(readFileSync(link, "utf8")).toBe("22".repeat(32) + "\n");
});
