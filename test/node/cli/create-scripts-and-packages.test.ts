// The created project's scripts: both listen on PORT (default 8787) on loopback, `npm start` is motebit-edge's own
// (wrangler offline, `--port N`, a taken port in one line: run in installed-from-tarballs.test.ts),
// `start:node` takes the same auth token as `start`; run from this checkout, the project depends on its packages.
import { readFileSync, statSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { expect, it } from "vitest";
import { runCli, tempDir } from "./run-cli.js";

const REPO = resolve(import.meta.dirname, "../../..");

it("start and start:node: PORT, loopback, motebit-edge's npm start, one auth token for both (motebit.json, 0600, git-ignored), state git-ignored", async () => {
  const dir = join(tempDir(), "agent");
  const r = await runCli(["create", dir]);
  expect(r.code, r.stderr).toBe(0);
  const { scripts } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  expect(scripts.start).toBe("motebit-edge-dev");
  expect(scripts["start:node"]).toContain("--serve-port ${PORT:-8787} ");
  expect(scripts["start:node"]).toContain("--config motebit.json ");
  const token = /^MOTEBIT_AUTH_TOKEN=([0-9a-f]{48})$/m.exec(readFileSync(join(dir, ".dev.vars"), "utf8"))![1];
  expect(JSON.parse(readFileSync(join(dir, "motebit.json"), "utf8"))).toEqual({ authToken: token });
  expect(statSync(join(dir, "motebit.json")).mode & 0o077).toBe(0);
  expect(readFileSync(join(dir, ".gitignore"), "utf8").split("\n")).toEqual(expect.arrayContaining(["motebit.json", ".motebit/", ".wrangler/"]));
});

it("run from a checkout it depends on the checkout's two packages; --registry on the published version", async () => {
  const linked = join(tempDir(), "linked");
  const r = await runCli(["create", linked]);
  expect(r.code, r.stderr).toBe(0);
  expect(JSON.parse(readFileSync(join(linked, "package.json"), "utf8")).dependencies).toEqual({
    "motebit-edge": `file:${REPO}`,
    "motebit-local": `file:${join(REPO, "local-stdio")}`,
  });
  expect(r.stdout).toContain("packages    the local ones this CLI runs from");
  // npm 11 names linked folders by their path from the project; their prepare (a rebuild) is not needed: denied.
  const { allowScripts } = JSON.parse(readFileSync(join(linked, "package.json"), "utf8"));
  expect(allowScripts).toMatchObject({ [`file:${relative(linked, REPO)}`]: false, [`file:${relative(linked, join(REPO, "local-stdio"))}`]: false });
  expect(readFileSync(join(linked, "README.md"), "utf8")).toContain(`\`file:${REPO}\``);

  const published = join(tempDir(), "published");
  expect((await runCli(["create", published, "--registry"])).code).toBe(0);
  const { version } = JSON.parse(readFileSync(join(REPO, "local-stdio/package.json"), "utf8"));
  expect(JSON.parse(readFileSync(join(published, "package.json"), "utf8")).dependencies).toEqual({
    "motebit-edge": `^${version}`,
    "motebit-local": `^${version}`,
  });
  expect(readFileSync(join(published, "README.md"), "utf8")).not.toContain("file:");
});
