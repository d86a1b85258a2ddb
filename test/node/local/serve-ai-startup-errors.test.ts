// AI settings that cannot work stop `serve` at start-up, never at the first call: exit 1, one stderr line naming
// the variable, nothing on stdout. The config file's upper-case keys count the same, and the environment wins.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cleanEnv, runCli, tempDir } from "./helpers/local-cli.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function expectStartupError(args: string[], env: Record<string, string>, pattern: RegExp) {
  const r = await runCli(["serve", "--data-dir", join(tmp.dir, "data"), ...args], { env: cleanEnv(env) });
  expect(r.code, r.stderr).toBe(1);
  expect(r.stdout).toBe("");
  const lines = r.stderr.trimEnd().split("\n");
  expect(lines, r.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^motebit-local serve: /);
  expect(lines[0]).toMatch(pattern);
}

describe("serve refuses AI settings that cannot work", () => {
  it("MOTEBIT_MODE=ai without ANTHROPIC_API_KEY names the missing variable", async () => {
    await expectStartupError([], { MOTEBIT_MODE: "ai" }, /MOTEBIT_MODE=ai .*needs ANTHROPIC_API_KEY/);
  });

  it("an unknown provider names MOTEBIT_PROVIDER and the choices", async () => {
    await expectStartupError([], { MOTEBIT_PROVIDER: "gpt" }, /MOTEBIT_PROVIDER must be one of anthropic, ollama, workers-ai, got "gpt"/);
  });

  it("workers-ai has no AI binding on this machine", async () => {
    await expectStartupError([], { MOTEBIT_PROVIDER: "workers-ai" }, /MOTEBIT_PROVIDER=workers-ai needs the AI binding/);
  });

  it("the config file's keys are read like the environment's, and the environment wins", async () => {
    const config = join(tmp.dir, "ai.json");
    writeFileSync(config, JSON.stringify({ MOTEBIT_MODE: "ai", MOTEBIT_TASK_TIMEOUT_MS: "soon" }));
    await expectStartupError(["--config", config], { MOTEBIT_TASK_TIMEOUT_MS: "2500" }, /MOTEBIT_MODE=ai .*needs ANTHROPIC_API_KEY/);
    await expectStartupError(["--config", config], { ANTHROPIC_API_KEY: "sk-ant-x" }, /MOTEBIT_TASK_TIMEOUT_MS must be a whole number of milliseconds/);
  });
});
