// serve stops cleanly: on stdin end after answering what was asked, on SIGTERM/SIGINT; the database is closed
// (its WAL checkpointed away) and the exit code is 0.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import exampleTools from "../../../examples/tools/index.js";
import { BIN, cleanEnv, initMotebit, REPO, runCli, tempDir } from "./helpers/local-cli.js";
import { waitFor } from "../../shared/wait-for.js";

const EXAMPLE_TOOLS = join(REPO, "examples/tools/index.ts");
const initialize = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

describe("serve over stdio: shutdown", () => {
  const tmp = tempDir();
  let identity: string;
  beforeAll(async () => {
    identity = await initMotebit(tmp.dir);
  });
  afterAll(() => tmp.cleanup());

  it("on stdin end, still answers a call that was running, then exits 0 with the database closed", async () => {
    expect(exampleTools.some((t) => t.definition.name === "slow")).toBe(true);
    const stdin = [initialize, { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "slow", arguments: { ms: 400 } } }]
      .map((m) => JSON.stringify(m))
      .join("\n") + "\n";
    const r = await runCli(["serve", "--identity", identity, "--tools", EXAMPLE_TOOLS], { stdin });
    expect(r.code, r.stderr).toBe(0);
    const answers = r.stdout.trim().split("\n").map((l) => JSON.parse(l));
    expect(answers.find((a) => a.id === 2).result.content[0].text).toContain("waited 400ms");
    expect(r.stderr).toContain("stopped (stdin closed)");
    expect(existsSync(join(tmp.dir, ".motebit", "motebit.sqlite-wal"))).toBe(false);
  });

  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    it(`on ${signal}, exits 0 with the database closed`, async () => {
      const child = spawn(process.execPath, [BIN, "serve", "--identity", identity], { cwd: REPO, env: cleanEnv(), stdio: ["pipe", "pipe", "pipe"] });
      let stderr = "";
      let stdout = "";
      child.stderr.on("data", (c) => (stderr += c));
      child.stdout.on("data", (c) => (stdout += c));
      const exited = new Promise<number | null>((r) => child.on("close", r));
      child.stdin.write(JSON.stringify(initialize) + "\n");
      try {
        await waitFor("the initialize answer on stdout", () => stdout.includes('"id":1'), 20_000);
        child.kill(signal);
        expect(await exited).toBe(0);
      } finally {
        child.kill("SIGKILL");
      }
      expect(stderr).toContain(`stopped (${signal})`);
      expect(existsSync(join(tmp.dir, ".motebit", "motebit.sqlite-wal"))).toBe(false);
    });
  }

  it("--self-test is accepted over stdio and says it is skipped (stdio never registers)", async () => {
    const r = await runCli(["serve", "--identity", identity, "--self-test"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("self-test skipped: stdio never registers with a relay (next: serve with --serve-transport http)");
  });
});
