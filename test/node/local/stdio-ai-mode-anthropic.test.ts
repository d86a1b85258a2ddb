// With ANTHROPIC_API_KEY set, serve runs AI mode through the Anthropic adapter (here against a local double of
// /v1/messages via ANTHROPIC_BASE_URL): the owner's query sees the owner's memories and forms new ones.
// --direct turns the model off again.
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_PROVIDER } from "../../../src/mcp/synthetic/query.js";
import { callText, cleanEnv, connectStdio, initMotebit, tempDir } from "./helpers/local-cli.js";

describe("serve over stdio with ANTHROPIC_API_KEY", () => {
  const tmp = tempDir();
  let double: Server;
  let env: Record<string, string>;
  const requests: { key: string | undefined; body: any }[] = [];

  beforeAll(async () => {
    double = createServer(async (req, res) => {
      let raw = "";
      for await (const c of req) raw += c;
      requests.push({ key: req.headers["x-api-key"] as string | undefined, body: JSON.parse(raw) });
      res.writeHead(200, { "content-type": "application/json" });
      res.end(
        JSON.stringify({
          type: "message",
          role: "assistant",
          content: [{ type: "text", text: "Your boat is called Saltine.\nMEMORY: The owner asked about the boat's name" }],
          stop_reason: "end_turn",
        }),
      );
    });
    await new Promise<void>((r) => double.listen(0, "127.0.0.1", r));
    const { port } = double.address() as { port: number };
    env = cleanEnv({ ANTHROPIC_API_KEY: "sk-ant-test", ANTHROPIC_MODEL: "claude-test-model", ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` });
  });
  afterAll(async () => {
    double.closeAllConnections();
    await new Promise((r) => double.close(r));
    tmp.cleanup();
  });

  it("answers motebit_query through the model, with the owner's memories, and reports the memories it formed", async () => {
    const identity = await initMotebit(tmp.dir);
    const s = await connectStdio(["--identity", identity], env);
    try {
      expect(s.stderr()).toContain("model: anthropic:claude-test-model");
      await callText(s.client, "motebit_remember", { content: "The owner's boat is named Saltine", sensitivity: "none" });
      const r = await callText(s.client, "motebit_query", { message: "What is my boat called?" });
      expect(r.isError, r.text).toBe(false);
      const answer = JSON.parse(r.text.replace(/\n\[motebit:[^\]]*\]\s*$/, ""));
      expect(answer).toEqual({ response: "Your boat is called Saltine.", memories_formed: 1 });

      const sent = requests[requests.length - 1];
      expect(sent.key).toBe("sk-ant-test");
      expect(sent.body.model).toBe("claude-test-model");
      expect(sent.body.system).toContain("The owner's boat is named Saltine");
      expect(sent.body.system).toContain("You are talking with your owner.");
      expect(sent.body.messages).toEqual([{ role: "user", content: "What is my boat called?" }]);

      const recalled = await callText(s.client, "motebit_recall", { query: "boat name question" });
      expect(recalled.text).toContain("The owner asked about the boat's name");
    } finally {
      await s.close();
    }
  });

  it("--direct keeps the model off even with the key set", async () => {
    const before = requests.length;
    const s = await connectStdio(["--identity", `${tmp.dir}/motebit.md`, "--direct"], env);
    try {
      expect(s.stderr()).toContain("model: none (--direct)");
      const r = await callText(s.client, "motebit_query", { message: "hello?" });
      expect(r.isError).toBe(true);
      expect(r.text).toContain(NO_PROVIDER);
      expect(requests.length).toBe(before);
    } finally {
      await s.close();
    }
  });
});
