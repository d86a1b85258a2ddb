// Black box: the real local edge (wrangler dev --local) and the MCP SDK's OAuth client, the owner approving with
// the real CLI (motebit-local oauth approve) and the consent form posted as a browser posts it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { runCli, tempDir } from "../cli/run-cli.js";
import { connectThroughConsent } from "../helpers/oauth-consent.js";
import { rawGet } from "../helpers/raw-get.js";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";
import { SDK_V2, stepUpFromRead } from "../../shared/oauth-step-up.js";

let edge: LocalEdge;
const dir = tempDir();
const keyFile = join(dir, "motebit.key");

beforeAll(async () => {
  writeFileSync(keyFile, keys.server.seed_hex + "\n", { mode: 0o600 });
  edge = await startLocalEdge({ MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: keys.auth_token });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

describe("an MCP host connects to the local edge through OAuth", () => {
  it("discovers, registers, is approved with the CLI, and runs a receipted motebit_task", async () => {
    const { client, provider } = await connectThroughConsent(new URL(`${edge.url}/mcp`), async (page) => {
      expect(page.status).toBe(200);
      const approved = await runCli(["oauth", "approve", page.code, "--url", edge.url, "--key", keyFile, "--trust", "verified"]);
      expect(approved.code, approved.stderr).toBe(0);
      return approved.stdout.trim();
    });
    const result = (await client.callTool({ name: "motebit_task", arguments: { prompt: "hello through oauth" } })) as { content: { text: string }[] };
    const receipt = JSON.parse(stripIdentityTag(result.content[0].text));
    expect(receipt.status).toBe("completed");
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    await client.close();

    const listed = await runCli(["oauth", "list", "--url", edge.url, "--key", keyFile]);
    expect(JSON.parse(listed.stdout).clients).toEqual([expect.objectContaining({ client_id: provider.info!.client_id, name: "SDK test client", trust: "verified" })]);
  }, 120_000);

  it("the SDK v2 client steps up from motebit:read to motebit_task at the edge (v1 steps up in workerd)", async () => {
    const { result } = await stepUpFromRead(SDK_V2, fetch, new URL(`${edge.url}/mcp`), async (page) => {
      const approved = await runCli(["oauth", "approve", page.code, "--url", edge.url, "--key", keyFile, "--trust", "verified"]);
      expect(approved.code, approved.stderr).toBe(0);
      return approved.stdout.trim();
    });
    const receipt = JSON.parse(stripIdentityTag(result.content[0].text));
    expect([receipt.status, (await verifyReceipt(receipt)).valid]).toEqual(["completed", true]);
  }, 120_000);

  it("without MOTEBIT_PUBLIC_URL its OAuth URLs are the loopback name used, never a Host the caller made up", async () => {
    const port = new URL(edge.url).port;
    const prm = "/.well-known/oauth-protected-resource/mcp";
    const own = await rawGet(edge.url, prm, `127.0.0.1:${port}`);
    expect([own.status, JSON.parse(own.body).resource]).toEqual([200, `http://127.0.0.1:${port}/mcp`]);
    const evil = await rawGet(edge.url, prm, "evil.example");
    expect(evil.status).toBe(421);
    expect(evil.body).not.toContain("evil.example");
  });
});
