// Writes a motebit-local database through the Node host of the release it runs in, for the upgrade tests
// (test/node/local/upgrade-from-previous-releases.test.ts). Not a test of this tree: copy it into an old release's
// test/node/local/ and run it there (scripts/upgrade-fixtures/README.md), with UPGRADE_FIXTURE_OUT set.
import { mkdirSync, copyFileSync } from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { expect, it } from "vitest";
import { createSigner, mintBearerToken, verifyIdentityFile } from "../../../src/protocol/index.js";
import { readFileSync } from "node:fs";
import { callText, connectStdio, freePort, initMotebit, startHttpServe, tempDir, writeToolsModule } from "./helpers/local-cli.js";

const V = "2026-07-28";

it("writes a database with memories, receipts, used jti, a session and tasks", async () => {
  const out = process.env.UPGRADE_FIXTURE_OUT;
  if (!out) throw new Error("set UPGRADE_FIXTURE_OUT");
  const tmp = tempDir();
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "upgrade-fixture"]);
  const tools = writeToolsModule(tmp.dir);
  const motebitId = (await verifyIdentityFile(readFileSync(identity, "utf8"))).motebit_id!;

  const owner = await connectStdio(["--identity", identity, "--tools", tools, "--direct"]);
  for (const content of ["The upgrade fixture's first memory", "The upgrade fixture's second memory"]) {
    expect((await callText(owner.client, "motebit_remember", { content, sensitivity: "none" })).isError).toBe(false);
  }
  expect((await callText(owner.client, "motebit_task", { prompt: "owner task", required_capabilities: ["shout"] })).isError).toBe(false);
  await owner.close();

  const port = await freePort();
  const server = await startHttpServe(["--identity", identity, "--tools", tools, "--direct", "--serve-port", String(port)]);
  const signer = await createSigner(readFileSync(join(tmp.dir, "motebit.key"), "utf8").trim());
  const auth = async () => `Bearer motebit:${await mintBearerToken({ mid: motebitId, did: "upgrade-fixture", aud: "mcp:call", sub: motebitId }, signer)}`;
  const post = async (body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${server.url}/mcp`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: await auth(), ...headers },
      body: JSON.stringify(body),
    });
  const init = await post({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "fixture", version: "1" } } });
  expect(init.status).toBe(200);
  const stateless = (method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) =>
    post(
      { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": caps } } },
      { "MCP-Protocol-Version": V, "Mcp-Method": method, ...(method === "tools/call" ? { "Mcp-Name": String(params.name) } : method.startsWith("tasks/") ? { "Mcp-Name": String(params.taskId) } : {}) },
    );
  const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
  for (const prompt of ["peer task one", "peer task two"]) {
    const created = ((await (await stateless("tools/call", { name: "motebit_task", arguments: { prompt, required_capabilities: ["shout"] } }, TASKS)).json()) as { result: { taskId: string; status: string } }).result;
    expect(created.taskId).toBeTruthy();
    let status = created.status;
    for (let i = 0; i < 100 && status === "working"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = ((await (await stateless("tasks/get", { taskId: created.taskId }, TASKS)).json()) as { result: { status: string } }).result.status;
    }
    expect(status).toBe("completed");
  }
  expect(await server.stop()).toBe(0);

  // One self-contained file (the WAL folded in), beside the identity and key it belongs to.
  mkdirSync(out, { recursive: true });
  const db = new Database(join(tmp.dir, ".motebit", "motebit.sqlite"));
  db.exec(`VACUUM INTO '${join(out, "motebit.sqlite")}'`);
  db.close();
  for (const f of ["motebit.md", "motebit.key", "tools.mjs"]) copyFileSync(join(tmp.dir, f), join(out, f));
  tmp.cleanup();
}, 120_000);
