// The docs runner (run-doc-block.ts) runs a block on free ports in place of the documented ones, so `npm test`
// passes beside `npm start` or another copy of the suite; and it leaves nothing running, even when the test process
// itself is killed mid-block.
import { spawn } from "node:child_process";
import { createServer } from "node:net";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { REPO } from "../local/helpers/local-cli.js";
import { runDocBlock } from "./run-doc-block.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

it("a block that listens on 8787, 3100 and 3200 runs while those ports are taken, and PORT names its edge port", async () => {
  const held = await Promise.all([8787, 3100, 3200].map((p) => new Promise<ReturnType<typeof createServer> | null>((resolve) => {
    const s = createServer();
    s.once("error", () => resolve(null)); // already taken by something else: as good for this test
    s.listen(p, "127.0.0.1", () => resolve(s));
  })));
  try {
    const listen = (p: number) => `node -e 'require("net").createServer().listen(${p}, "127.0.0.1", function () { this.close() })'`;
    const r = await runDocBlock([listen(8787), listen(3100), listen(3200), 'test "http://127.0.0.1:8787" = "http://127.0.0.1:$PORT"', ""].join("\n"));
    expect(r.code, r.output).toBe(0);
  } finally {
    await Promise.all(held.map((s) => new Promise<void>((r) => (s ? s.close(() => r()) : r()))));
  }
}, 60_000);

it("a block runs in a fresh copy of the checkout: no .dev.vars of this one, and what it writes stays out of this one", async () => {
  const r = await runDocBlock("test ! -e .dev.vars\ntest -e wrangler.toml\necho written-by-a-block > .dev.vars\n");
  expect(r.code, r.output).toBe(0);
  expect(readFileOr(join(REPO, ".dev.vars"))).not.toBe("written-by-a-block");
}, 60_000);

it("the test process killed mid-block (SIGKILL): the block's background server is gone within seconds", async () => {
  const dir = mkdtempSync(join(tmpdir(), "motebit-docs-leak-"));
  try {
    const pidFile = join(dir, "pid");
    // A runner in a process of its own, killed as an interrupted `npm test` would be.
    const runner = `import { runDocBlock } from ${JSON.stringify(join(REPO, "test/node/docs/run-doc-block.ts"))};
await runDocBlock("sleep 300 & echo $! > ${pidFile}; until false; do sleep 1; done");`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", runner], { cwd: REPO, stdio: "ignore" });
    let server = 0;
    for (let i = 0; i < 300 && server === 0; i++) {
      await new Promise((r) => setTimeout(r, 100));
      server = Number(readFileOr(pidFile)) || 0;
    }
    expect(server).toBeGreaterThan(0);
    expect(alive(server)).toBe(true);
    child.kill("SIGKILL");
    await expect.poll(() => alive(server), { timeout: 10_000, interval: 200 }).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

function readFileOr(path: string): string {
  try {
    return readFileSync(path, "utf8").trim();
  } catch {
    return "";
  }
}
