// `serve --serve-transport http` as an OAuth-protected resource: the MCP SDK's client registers, the owner approves
// with `motebit-local oauth approve` and the key init wrote, and motebit_task's receipt is filed in the local ledger
// under oauth:<client_id> (`motebit-local receipts` shows it). Nothing but the shipped CLI.
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { connectThroughConsent } from "../helpers/oauth-consent.js";
import { rawGet } from "../helpers/raw-get.js";
import { freePort, initMotebit, runCli, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";
import { SDK_V1, SDK_V2, stepUpFromRead } from "../../shared/oauth-step-up.js";

describe("serve over http with OAuth", () => {
  const tmp = tempDir();
  let identity: string;
  let server: HttpServe;

  beforeAll(async () => {
    identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "oauth-local"]);
    server = await startHttpServe(["--identity", identity, "--serve-port", String(await freePort())]);
  });

  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it("an MCP host gets in after the owner's approval and its task receipt names it", async () => {
    const { client, provider } = await connectThroughConsent(new URL(`${server.url}/mcp`), async (page) => {
      const approved = await runCli(["oauth", "approve", page.code, "--url", server.url, "--key", join(tmp.dir, "motebit.key"), "--trust", "verified"]);
      expect(approved.code, approved.stderr).toBe(0);
      return approved.stdout.trim();
    });
    const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "hello from a host" } })) as { content: { text: string }[] };
    const taskId = JSON.parse(stripIdentityTag(result.content[0].text)).task_id;
    await client.close();
    const ledger = await runCli(["receipts", "--identity", identity]);
    const entry = (JSON.parse(ledger.stdout) as { caller: string; receipt: { task_id: string } }[]).find((r) => r.receipt.task_id === taskId);
    expect(entry?.caller).toBe(`peer:oauth:${provider.info!.client_id}`);
  });

  for (const sdk of [SDK_V1, SDK_V2]) {
    it(`the SDK ${sdk.name} client steps up from motebit:read to motebit_task; oauth approve shows the scopes it signs`, async () => {
      const shown: string[] = [];
      const { result } = await stepUpFromRead(sdk, fetch, new URL(`${server.url}/mcp`), async (page) => {
        const approved = await runCli(["oauth", "approve", page.code, "--url", server.url, "--key", join(tmp.dir, "motebit.key"), "--trust", "verified"]);
        expect(approved.code, approved.stderr).toBe(0);
        shown.push(approved.stderr);
        return approved.stdout.trim();
      });
      // It ran: a signed receipt (this motebit serves no tool a task could use, so it says the task failed).
      expect(JSON.parse(stripIdentityTag(result.content[0].text))).toMatchObject({ task_id: expect.any(String), signature: expect.any(String) });
      expect(shown[0]).toContain("motebit:read: connect");
      expect(shown[0]).not.toContain("motebit:task");
      expect(shown[1]).toContain("motebit:task: give the motebit tasks");
    });
  }

  it("its OAuth URLs name the address it listens on, never a Host or absolute-form target the caller made up", async () => {
    const port = new URL(server.url).port;
    const prm = "/.well-known/oauth-protected-resource/mcp";
    for (const name of [`127.0.0.1:${port}`, `localhost:${port}`]) {
      const r = await rawGet(server.url, prm, name);
      expect([r.status, JSON.parse(r.body).resource]).toEqual([200, `http://${name}/mcp`]);
    }
    for (const [target, host] of [[prm, "evil.example"], [prm, `evil.example:${port}`], [`http://evil.example${prm}`, `127.0.0.1:${port}`], [prm, "127.0.0.1:1"]]) {
      const r = await rawGet(server.url, target, host);
      expect(r.status, `${target} Host: ${host}`).toBe(421);
      expect(r.body).not.toContain("evil.example");
    }
  });
});
