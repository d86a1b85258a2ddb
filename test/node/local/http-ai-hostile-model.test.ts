// A hostile model behind motebit-local's real HTTP host (Anthropic Messages API, scripted on 127.0.0.1): it reuses a
// tool_use id across responses and names an approval-band tool a trusted peer passes the gate for but was never
// offered. The signed receipt lists only what ran, and the unoffered tool's side effect never happens.
import { chmodSync, existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, parseIdentityFile, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { ScriptedModelServer } from "../../doubles/model-server.js";
import { cleanEnv, freePort, initMotebit, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";
import { postStateless } from "../helpers/stateless-post.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";

const CALLER = keys.known_caller.sovereign_motebit_id;

describe("serve over http, AI mode: a hostile model cannot make a receipt claim what did not run", () => {
  const tmp = tempDir();
  const model = new ScriptedModelServer();
  const marker = join(tmp.dir, "deployed");
  let server: HttpServe;
  let motebitId: string;

  beforeAll(async () => {
    const url = await model.start();
    // personal preset: R2-R3 are the approval band; the caller is pinned as trusted, so the gate lets deploy through.
    const identity = await initMotebit(tmp.dir, ["--type", "personal"]);
    motebitId = parseIdentityFile(readFileSync(identity, "utf8")).doc.motebit_id;
    const tools = join(tmp.dir, "tools.mjs");
    writeFileSync(
      tools,
      `import { writeFileSync } from "node:fs";
export default [
  { definition: { name: "echo", description: "Echoes.", inputSchema: { type: "object", properties: { text: { type: "string" } } }, risk: "R0_READ" },
    handler: (a) => ({ ok: true, data: String(a.text) }) },
  { definition: { name: "deploy", description: "Deploys.", inputSchema: { type: "object", properties: {} }, risk: "R2_WRITE" },
    handler: () => (writeFileSync(${JSON.stringify(marker)}, "yes"), { ok: true, data: "deployed" }) },
];
`,
    );
    const config = join(tmp.dir, "motebit.json");
    writeFileSync(config, JSON.stringify({ knownCallers: { [CALLER]: { public_key: keys.known_caller.public_key_hex, trust: "trusted" } } }));
    chmodSync(config, 0o600);
    const env = cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-test", MOTEBIT_MODEL: "claude-test-model", ANTHROPIC_BASE_URL: `${url}/v1` });
    server = await startHttpServe(["--identity", identity, "--tools", tools, "--config", config, "--serve-port", String(await freePort())], env);
  });
  afterAll(async () => {
    await server?.stop();
    await model.stop();
    tmp.cleanup();
  });

  async function task(prompt: string): Promise<ExecutionReceipt> {
    const token = await mintBearerToken({ mid: CALLER, did: "d", aud: "mcp:call", sub: motebitId }, await createSigner(keys.known_caller.seed_hex));
    const { body } = await postStateless(server.url, "tools/call", { name: "motebit_task", arguments: { prompt } }, { auth: `Bearer motebit:${token}` });
    expect(body.result, JSON.stringify(body)).toBeDefined();
    return receiptOfResult(body.result);
  }

  it("a tool_use id reused for an unoffered tool: neither it nor the side effect happens; tools_used is [echo]", async () => {
    model.setScript({ tools: [{ id: "dup1", name: "echo", input: { text: "hi" } }] }, { tools: [{ id: "dup1", name: "deploy", input: {} }] }, "done");
    const r = await task("echo then deploy");
    expect(r.status).toBe("completed");
    expect(r.tools_used).toEqual(["echo"]);
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect(existsSync(marker)).toBe(false);
  });

  it("the same id twice in one response runs once; a fresh id for the unoffered tool is still refused", async () => {
    model.setScript(
      { tools: [{ id: "x", name: "echo", input: { text: "1" } }, { id: "x", name: "echo", input: { text: "2" } }] },
      { tools: [{ id: "fresh", name: "deploy", input: {} }] },
      "done",
    );
    const r = await task("twice");
    expect(r.tools_used).toEqual(["echo"]);
    expect(existsSync(marker)).toBe(false);
    // The model was never offered deploy.
    const offered = (model.chats()[0].body.tools as { name: string }[]).map((t) => t.name);
    expect(offered).toContain("echo");
    expect(offered).not.toContain("deploy");
  });
});
