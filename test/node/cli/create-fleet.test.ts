// `motebit-local create --fleet`: a fleet Worker project with an operator token (kept out of git) and no motebit
// key; `motebit-local fleet` refuses what it cannot send.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

it("writes a fleet Worker: same entry and tools, a random operator token in fleet.token and .dev.vars, no key", async () => {
  const dir = join(tempDir(), "my-fleet");
  const r = await runCli(["create", "--fleet", dir]);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(dir, "wrangler.toml"), "utf8")).toContain('class_name = "MotebitObject"');
  expect(readFileSync(join(dir, "src/index.ts"), "utf8")).toContain("createMotebitWorker");
  expect(existsSync(join(dir, "motebit.key"))).toBe(false);
  expect(existsSync(join(dir, "motebit.md"))).toBe(false);
  const token = readFileSync(join(dir, "fleet.token"), "utf8").trim();
  expect(token).toMatch(/^[0-9a-f]{64}$/);
  expect(statSync(join(dir, "fleet.token")).mode & 0o077).toBe(0);
  expect(readFileSync(join(dir, ".dev.vars"), "utf8")).toBe(`MOTEBIT_FLEET_TOKEN=${token}\n`);
  expect(readFileSync(join(dir, ".gitignore"), "utf8").split("\n")).toEqual(expect.arrayContaining(["fleet.token", ".dev.vars"]));
  expect(readFileSync(join(dir, "README.md"), "utf8")).toContain("motebit-local fleet create");
  expect(r.stdout).toContain("fleet create <name>");
});

it("with --force keeps an existing operator token and adds it to an existing .dev.vars", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "fleet.token"), "kept-operator-token\n");
  writeFileSync(join(dir, ".dev.vars"), "MOTEBIT_RATE_LIMIT=10\n");
  const r = await runCli(["create", "--fleet", dir, "--force"]);
  expect(r.code, r.stderr).toBe(0);
  expect(readFileSync(join(dir, "fleet.token"), "utf8")).toBe("kept-operator-token\n");
  expect(readFileSync(join(dir, ".dev.vars"), "utf8")).toContain("MOTEBIT_FLEET_TOKEN=kept-operator-token\n");
});

it("fleet: usage errors exit 2 and name the problem", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "t"), "x");
  const cases: [string[], RegExp][] = [
    [["fleet"], /an action is required/],
    [["fleet", "create", "--url", "http://127.0.0.1:1", "--token-file", join(dir, "t")], /a motebit name is required/],
    [["fleet", "create", "a", "--token-file", join(dir, "t")], /--url is required/],
    [["fleet", "list", "--url", "http://127.0.0.1:1"], /--token-file is required/],
    [["fleet", "list", "--url", "http://127.0.0.1:1", "--token-file", join(dir, "t"), "--limit", "0"], /--limit must be/],
  ];
  for (const [args, why] of cases) {
    const r = await runCli(args);
    expect([args.join(" "), r.code]).toEqual([args.join(" "), 2]);
    expect(r.stderr).toMatch(why);
  }
  expect((await runCli(["fleet", "--help"])).stdout).toContain("motebit-local fleet create <name> --url URL --token-file FILE");
});
