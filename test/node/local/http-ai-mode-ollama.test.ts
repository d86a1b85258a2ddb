// AI mode over real HTTP through the real ollama-ai-provider-v2 package, against a scripted model server on
// 127.0.0.1 speaking Ollama's API, with Ollama embeddings for recall (MOTEBIT_EMBEDDER=ollama). A peer's task that
// needs two tools comes back with both in tools_used and a receipt that verifies with the public key alone; a
// peer's query carries none of the owner's memories to the model, and reports memories_formed 0.
import { chmodSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stripIdentityTag, verifyIdentityFile, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { EMBED_DIMENSIONS, ScriptedModelServer } from "../../doubles/model-server.js";
import { callText, cleanEnv, connectStdio, freePort, initMotebit, REPO, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

const TOKEN = "local-http-ai-test-token-0123456789";
const TOOLS = join(REPO, "examples/tools/index.ts");
const OWNER_FACT = "The owner's sailing club meets at Pier 39";

describe("serve over http with MOTEBIT_PROVIDER=ollama: a peer's AI turn", () => {
  const tmp = tempDir();
  const model = new ScriptedModelServer();
  let server: HttpServe;
  let client: Client;
  let publicKeyHex: string;

  beforeAll(async () => {
    const url = await model.start();
    const env = cleanEnv({ MOTEBIT_PROVIDER: "ollama", MOTEBIT_MODEL: "llama-test", OLLAMA_BASE_URL: `${url}/api`, MOTEBIT_EMBEDDER: "ollama" });
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "ollama-peer-test"]);
    publicKeyHex = (await verifyIdentityFile(readFileSync(identity, "utf8"))).publicKeyHex!;
    // The owner stores a memory over stdio (embedded by Ollama) in the data dir the HTTP server then uses.
    const owner = await connectStdio(["--identity", identity, "--tools", TOOLS], env);
    expect(owner.stderr()).toContain(`embedder: ollama:nomic-embed-text:${EMBED_DIMENSIONS}`);
    expect((await callText(owner.client, "motebit_remember", { content: OWNER_FACT, sensitivity: "none" })).isError).toBe(false);
    await owner.close();

    const config = join(tmp.dir, "motebit.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    chmodSync(config, 0o600);
    server = await startHttpServe(["--identity", identity, "--tools", TOOLS, "--config", config, "--serve-port", String(await freePort())], env);
    client = new Client({ name: "peer-agent", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  });
  afterAll(async () => {
    await client?.close().catch(() => {});
    await server?.stop();
    await model.stop();
    tmp.cleanup();
  });

  it("names mode, provider and model on start-up", () => {
    expect(server.stderr()).toContain("mode: ai; provider: ollama; model: llama-test");
  });

  it("a peer's task that needs two tools lists both, and its receipt verifies independently", async () => {
    model.setScript(
      { tools: [{ name: "echo", input: { text: "red green blue" } }] },
      { tools: [{ name: "word_count", input: { text: "red green blue" } }] },
      "Echoed; 3 words.",
    );
    const before = model.chats().length;
    const r = await callText(client, "motebit_task", { prompt: "echo 'red green blue' and count the words" });
    const receipt = JSON.parse(stripIdentityTag(r.text)) as ExecutionReceipt;
    expect(receipt.status).toBe("completed");
    expect(receipt.tools_used).toEqual(["echo", "word_count"]);
    expect(receipt.invocation_origin).toBe("agent-to-agent");
    // Independently: the embedded key is the identity file's key, and the signature holds under it.
    expect(receipt.public_key).toBe(publicKeyHex);
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    const sent = model.chats().slice(before);
    expect(sent.map((q) => q.path)).toEqual(["/api/chat", "/api/chat", "/api/chat"]);
    expect(sent[0].body.model).toBe("llama-test");
    // A peer is offered served tools only: never a localOnly tool, never a motebit_* tool.
    const offered = (sent[0].body.tools as { function: { name: string } }[]).map((t) => t.function.name).sort();
    expect(offered).toEqual(["current_time", "echo", "slow", "word_count"]);
  });

  it("a peer's query (streamed) carries none of the owner's memories to the model, and memories_formed is 0", async () => {
    model.setScript("I know nothing about your club.\nMEMORY (0.9): a peer asked about a sailing club");
    const before = model.chats().length;
    const r = await callText(client, "motebit_query", { message: "Where does the sailing club meet?" });
    expect(r.isError, r.text).toBe(false);
    expect(JSON.parse(stripIdentityTag(r.text))).toEqual({ response: "I know nothing about your club.", memories_formed: 0 });
    const sent = model.chats().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0].body.stream).toBe(true);
    expect(JSON.stringify(sent[0].body)).not.toContain("Pier 39");
    expect(JSON.stringify(sent[0].body)).toContain("not your owner");
  });
});
