// AI mode over real stdio through the real @ai-sdk/anthropic package, against a scripted model server on 127.0.0.1
// speaking the Anthropic Messages API: the owner's query (streamed) sees the owner's memories and forms new ones; the
// owner's task (not streamed) chains two tools into one signed receipt; --direct turns the model off again.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_PROVIDER } from "../../../src/mcp/synthetic/query.js";
import { stripIdentityTag, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { ScriptedModelServer } from "../../doubles/model-server.js";
import { join } from "node:path";
import { callText, cleanEnv, connectStdio, initMotebit, REPO, tempDir } from "./helpers/local-cli.js";

const TOOLS = join(REPO, "examples/tools/index.ts");

describe("serve over stdio with ANTHROPIC_API_KEY: AI mode", () => {
  const tmp = tempDir();
  const model = new ScriptedModelServer();
  let env: Record<string, string>;
  let identity: string;

  beforeAll(async () => {
    const url = await model.start();
    env = cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-test", MOTEBIT_MODEL: "claude-test-model", ANTHROPIC_BASE_URL: `${url}/v1` });
    identity = await initMotebit(tmp.dir);
  });
  afterAll(async () => {
    await model.stop();
    tmp.cleanup();
  });

  it("says mode, provider and model on start-up; the owner's query sees the owner's memories and forms one", async () => {
    const s = await connectStdio(["--identity", identity, "--tools", TOOLS], env);
    try {
      expect(s.stderr()).toContain("mode: ai; provider: anthropic; model: claude-test-model");
      await callText(s.client, "motebit_remember", { content: "The owner's boat is named Saltine", sensitivity: "none" });
      await callText(s.client, "motebit_remember", { content: "The owner's bank PIN hint is tidewater", sensitivity: "financial" });
      model.setScript("Your boat is called Saltine.\nMEMORY (0.9): The owner asked about the boat's name\nMEMORY (0.1): a guess");
      const r = await callText(s.client, "motebit_query", { message: "What is my boat called?" });
      expect(r.isError, r.text).toBe(false);
      expect(JSON.parse(stripIdentityTag(r.text))).toEqual({ response: "Your boat is called Saltine.", memories_formed: 1 });

      const sent = model.chats().at(-1)!;
      expect(sent.path).toBe("/v1/messages");
      expect(sent.headers["x-api-key"]).toBe("sk-ant-test");
      expect(sent.body.model).toBe("claude-test-model");
      expect(sent.body.stream).toBe(true);
      const system = JSON.stringify(sent.body.system);
      expect(system).toContain("The owner's boat is named Saltine");
      expect(system).toContain("You are talking with your owner.");
      // Financial memories never reach a model provider, even in the owner's turn.
      expect(JSON.stringify(sent.body)).not.toContain("tidewater");
      const recalled = await callText(s.client, "motebit_recall", { query: "boat name question" });
      expect(recalled.text).toContain("The owner asked about the boat's name");
      expect(recalled.text).not.toContain("a guess");
    } finally {
      await s.close();
    }
  });

  it("the owner's task chains two tools through the model into one receipt that verifies", async () => {
    const s = await connectStdio(["--identity", identity, "--tools", TOOLS], env);
    try {
      model.setScript(
        { tools: [{ name: "echo", input: { text: "one two three" } }] },
        { tools: [{ name: "word_count", input: { text: "one two three" } }] },
        "Echoed it; it has 3 words.",
      );
      const before = model.chats().length;
      const r = await callText(s.client, "motebit_task", { prompt: "echo 'one two three', then count its words" });
      const receipt = JSON.parse(stripIdentityTag(r.text)) as ExecutionReceipt;
      expect(receipt.status).toBe("completed");
      expect(receipt.tools_used).toEqual(["echo", "word_count"]);
      expect(receipt.result).toBe("Echoed it; it has 3 words.");
      expect((await verifyReceipt(receipt)).valid).toBe(true);
      const sent = model.chats().slice(before);
      expect(sent).toHaveLength(3);
      expect(sent.every((q) => q.body.stream !== true)).toBe(true);
      // The word_count request carried echo's output back as a tool_result, marked as external data.
      const toolResult = JSON.stringify(sent[1].body.messages.at(-1));
      expect(toolResult).toContain("tool_result");
      expect(toolResult).toContain('<external-data source=\\"echo\\">');
    } finally {
      await s.close();
    }
  });

  it("--direct keeps the model off even with the key set, and tasks still run in direct mode", async () => {
    const before = model.requests.length;
    const s = await connectStdio(["--identity", identity, "--tools", TOOLS, "--direct"], env);
    try {
      expect(s.stderr()).toContain("mode: direct (--direct); model: none");
      const r = await callText(s.client, "motebit_query", { message: "hello?" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(NO_PROVIDER);
      const t = JSON.parse(stripIdentityTag((await callText(s.client, "motebit_task", { prompt: "hello" })).text)) as ExecutionReceipt;
      expect(t.status).toBe("completed");
      expect(t.tools_used).toEqual(["echo"]);
      expect(model.requests.length).toBe(before);
    } finally {
      await s.close();
    }
  });
});
