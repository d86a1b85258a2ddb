// `motebit-local call` against a real `serve --serve-transport http`: a fresh signed token per request (--key) or
// the auth token (--token), the result on stdout, a receipt verified (and accepted by `verify`), errors in one line.
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { freePort, initMotebit, runCli, startHttpServe, tempDir, writeToolsModule, type HttpServe } from "../local/helpers/local-cli.js";

const TOKEN = "call-test-auth-token-0123456789abcdef";
const tmp = tempDir();
let server: HttpServe;
let mcp: string;
let key: string;

beforeAll(async () => {
  // A service identity: a personal one sends every peer task to the owner for approval.
  const identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service"]);
  key = join(tmp.dir, "me", "motebit.key");
  const config = join(tmp.dir, "motebit.json");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
  chmodSync(config, 0o600);
  server = await startHttpServe(["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--config", config, "--serve-port", String(await freePort())]);
  mcp = `${server.url}/mcp`;
}, 60_000);
afterAll(async () => {
  await server?.stop();
  tmp.cleanup();
});

describe("motebit-local call", () => {
  it("--key: motebit_task's signed receipt is printed, verified, and `verify` accepts it", async () => {
    const r = await runCli(["call", mcp, "motebit_task", '{"prompt":"shout hello"}', "--key", key]);
    expect(r.code, r.stderr).toBe(0);
    const result = JSON.parse(r.stdout) as { content: { type: string; text: string }[] };
    const receipt = JSON.parse(stripIdentityTag(result.content[0].text)) as { task_id: string; motebit_id: string; status: string };
    expect(r.stderr).toBe(`motebit-local call: receipt verified: task ${receipt.task_id}, status ${receipt.status}, signed by motebit ${receipt.motebit_id}\n`);
    const file = join(tmp.dir, "receipt.json");
    writeFileSync(file, JSON.stringify(receipt));
    const v = await runCli(["verify", file]);
    expect(v.code, v.stdout).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, type: "receipt" });
  });

  it("--token: a plain tool's result, no receipt line", async () => {
    const r = await runCli(["call", mcp, "shout", '{"text":"hi"}', "--token", TOKEN]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    expect(stripIdentityTag((JSON.parse(r.stdout) as { content: { text: string }[] }).content[0].text)).toContain("HI");
  });

  it("a wrong token: exit 1, one line that says what to pass", async () => {
    const r = await runCli(["call", mcp, "shout", '{"text":"hi"}', "--token", "wrong"]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr.split("\n")[0]).toMatch(/^motebit-local call: initialize: HTTP 401 .* \(pass --key with a key the server knows, or --token with its auth token\)$/);
  });

  it("nothing listening: exit 1, one line naming the URL", async () => {
    const url = `http://127.0.0.1:${await freePort()}/mcp`;
    const r = await runCli(["call", url, "shout", "--token", TOKEN]);
    expect([r.code, r.stderr]).toEqual([1, `motebit-local call: cannot reach ${url}: ECONNREFUSED\n`]);
  });

  it("neither --key nor --token: a usage error", async () => {
    const r = await runCli(["call", mcp, "shout"]);
    expect(r.code).toBe(2);
    expect(r.stderr.split("\n")[0]).toBe("motebit-local call: give one of --key FILE or --token TOKEN");
  });
});
