// `motebit-local create`: a project that works at once, a signed identity whose key stays out of git, and no
// overwriting: a non-empty folder is refused without --force, and with --force the key is kept.
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { expect, it } from "vitest";
import { verifyIdentityFile } from "../../../src/protocol/index.js";
import { runCli, tempDir } from "./run-cli.js";

it("writes the project: scripts, Worker entry, tools + test, signed identity, ignored secrets, .dev.vars", async () => {
  const dir = join(tempDir(), "My Agent");
  const r = await runCli(["create", dir, "--type", "service"]);
  expect(r.code, r.stderr).toBe(0);
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  expect(pkg.name).toBe("my-agent");
  expect(Object.keys(pkg.scripts).sort()).toEqual(["deploy", "start", "start:node", "test"]);
  expect(pkg.scripts["start:node"]).toContain("--self-test");
  expect(Object.keys(pkg.dependencies).sort()).toEqual(["motebit-edge", "motebit-local"]);
  const entry = readFileSync(join(dir, "src/index.ts"), "utf8");
  expect(entry.trim().split("\n")).toHaveLength(7);
  expect(entry).toContain("export default worker;\nexport const { MotebitObject } = worker;\n");
  expect(readFileSync(join(dir, "wrangler.toml"), "utf8")).toMatch(/main = "src\/index.ts"[\s\S]*class_name = "MotebitObject"/);
  for (const f of ["src/tools.ts", "test/tools.test.ts", "README.md"]) expect(existsSync(join(dir, f)), f).toBe(true);

  const identity = readFileSync(join(dir, "motebit.md"), "utf8");
  const doc = await verifyIdentityFile(identity);
  expect(doc).toMatchObject({ valid: true, doc: { type: "service", service_name: "my-agent" } });
  expect(r.stdout).toContain(doc.motebit_id!);
  expect(statSync(join(dir, "motebit.key")).mode & 0o077).toBe(0);
  expect(readFileSync(join(dir, ".gitignore"), "utf8").split("\n")).toEqual(expect.arrayContaining(["motebit.key", ".dev.vars"]));
  const vars = readFileSync(join(dir, ".dev.vars"), "utf8");
  expect(vars).toContain(`MOTEBIT_PRIVATE_KEY=${readFileSync(join(dir, "motebit.key"), "utf8").trim()}\n`);
  expect(vars).toContain("MOTEBIT_IDENTITY=`" + identity + "`\n");
  expect(vars).toMatch(/^MOTEBIT_AUTH_TOKEN=[0-9a-f]{48}$/m);
});

it("refuses a non-empty folder without --force; with --force keeps the key and re-signs with it", async () => {
  const dir = tempDir();
  writeFileSync(join(dir, "notes.txt"), "mine");
  const refused = await runCli(["create", dir]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("is not empty");
  expect(existsSync(join(dir, "package.json"))).toBe(false);

  expect((await runCli(["create", dir, "--force", "--name", "first"])).code).toBe(0);
  const key = readFileSync(join(dir, "motebit.key"), "utf8");
  const first = await verifyIdentityFile(readFileSync(join(dir, "motebit.md"), "utf8"));
  const again = await runCli(["create", dir, "--force", "--type", "personal"]);
  expect(again.code, again.stderr).toBe(0);
  expect(again.stdout).toContain("kept");
  expect(readFileSync(join(dir, "motebit.key"), "utf8")).toBe(key);
  const second = await verifyIdentityFile(readFileSync(join(dir, "motebit.md"), "utf8"));
  expect(second.motebit_id).toBe(first.motebit_id);
  expect(second).toMatchObject({ valid: true, doc: { type: "personal" } });
  expect(readFileSync(join(dir, "notes.txt"), "utf8")).toBe("mine");
});

it("usage errors: no folder, a bad --type", async () => {
  expect((await runCli(["create"])).code).toBe(2);
  const bad = await runCli(["create", join(tempDir(), "x"), "--type", "robot"]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('--type must be "service" or "personal"');
});

it("run from this repository's root, refuses to write the project inside the checkout and says where to run it", async () => {
  const repo = resolve(import.meta.dirname, "../../..");
  const r = await runCli(["create", "my-agent"], { cwd: repo });
  expect(r.code).toBe(1);
  expect(r.stderr).toBe(
    `motebit-local create: ${join(repo, "my-agent")} is inside the motebit-edge checkout ${repo}; create the project outside it, e.g. npx motebit-local create ~/my-agent\n`,
  );
  expect(existsSync(join(repo, "my-agent"))).toBe(false);
  // A folder beside the checkout is fine (the README's create line runs it from the root with ~/…).
  expect((await runCli(["create", join(tempDir(), "beside")], { cwd: repo })).code).toBe(0);
});
