// motebit-local's HTTP serve answers the signed discovery documents (jose verifies them under the key init wrote),
// and `motebit-local server-json URL` prints the server.json a deployment signed, refusing one signed by another
// key than --key (#39 item 3).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { joseVerify, type Json, unsign } from "../../shared/discovery-jws.js";
import { freePort, initMotebit, runCli, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

describe("discovery over motebit-local's HTTP serve", () => {
  const tmp = tempDir();
  let server: HttpServe;
  let publicKey: string;

  beforeAll(async () => {
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "disc-local"]);
    publicKey = /^\s*public_key:\s*"?([0-9a-f]{64})/m.exec(readFileSync(identity, "utf8"))![1];
    server = await startHttpServe(["--identity", identity, "--serve-port", String(await freePort())]);
  });

  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it("serves the three documents signed with the motebit's key, on the address it listens on", async () => {
    for (const [kind, path] of [["agentCard", "/.well-known/agent-card.json"], ["serverCard", "/.well-known/mcp/server-card.json"], ["serverJson", "/server.json"]] as const) {
      const res = await fetch(`${server.url}${path}`);
      expect(res.status, path).toBe(200);
      const doc = (await res.json()) as Json;
      const { unsigned, jws } = unsign(kind, doc);
      await joseVerify(unsigned, jws, publicKey);
      expect(JSON.stringify(doc), path).toContain(`"${server.url}/mcp"`);
    }
  });

  it("server-json prints the signed document; a wrong --key is refused with exit 1", async () => {
    const ok = await runCli(["server-json", server.url, "--key", publicKey]);
    expect(ok.code, ok.stderr).toBe(0);
    const doc = JSON.parse(ok.stdout) as Json;
    expect(doc).toMatchObject({ $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", title: "disc-local", remotes: [{ type: "streamable-http", url: `${server.url}/mcp` }] });
    const wrong = await runCli(["server-json", server.url, "--key", "ab".repeat(32)]);
    expect([wrong.code, wrong.stdout]).toEqual([1, ""]);
    expect(wrong.stderr).toMatch(/not the --key given/);
  });
});
