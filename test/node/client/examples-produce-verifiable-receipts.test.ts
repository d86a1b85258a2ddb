// examples/client/ as a user runs them (npx tsx …): the MCP SDK over Streamable HTTP with signedFetch, and over
// stdio launching motebit-local; each prints a motebit_task result whose receipt `motebit-local verify -` accepts.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runToCompletion } from "../helpers/child-process.js";
import { BIN, cleanEnv, freePort, initMotebit, REPO, runCli, startHttpServe, tempDir, writeToolsModule, type HttpServe } from "../local/helpers/local-cli.js";

const tmp = tempDir();
let identity: string;
let server: HttpServe;

beforeAll(async () => {
  // A service identity: a personal one sends every peer task to the owner for approval.
  identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service"]);
  server = await startHttpServe(["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--serve-port", String(await freePort())]);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  tmp.cleanup();
});

async function example(file: string, args: string[]): Promise<string> {
  const r = await runToCompletion(process.execPath, ["--import", "tsx", join(REPO, "examples/client", file), ...args], {
    cwd: REPO,
    env: cleanEnv({ MOTEBIT_LOCAL_BIN: BIN }),
    timeoutMs: 60_000,
  });
  expect(r.code, r.stderr).toBe(0);
  return r.stdout;
}

async function expectVerifiedReceipt(stdout: string) {
  const v = await runCli(["verify", "-"], { stdin: stdout });
  expect(v.code, v.stdout + v.stderr).toBe(0);
  expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, type: "receipt" });
}

describe("examples/client", () => {
  it("http.ts: signed tokens per request, a receipt verify accepts", async () => {
    await expectVerifiedReceipt(await example("http.ts", [`${server.url}/mcp`, join(tmp.dir, "me", "motebit.key"), "shout hello"]));
  });

  it("stdio.ts: the owner's session through motebit-local serve, a receipt verify accepts", async () => {
    await expectVerifiedReceipt(await example("stdio.ts", [identity, "shout hello"]));
  });
});
