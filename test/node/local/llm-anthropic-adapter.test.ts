// The Anthropic adapter against a local HTTP double of /v1/messages: request shape, reply text, errors, abort.
import { createServer, type IncomingMessage, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AnthropicLlm, ANTHROPIC_DEFAULT_MODEL } from "../../../src/agent/llm-anthropic.js";

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

beforeAll(async () => {
  server = createServer(async (req, res) => {
    let raw = "";
    for await (const chunk of req) raw += chunk;
    const body = JSON.parse(raw);
    seen.push({ path: req.url ?? "", headers: req.headers, body });
    const last = body.messages[body.messages.length - 1]?.content ?? "";
    if (req.headers["x-api-key"] !== "test-key") {
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ type: "error", error: { type: "authentication_error", message: "invalid x-api-key" } }));
      return;
    }
    if (last === "hang") return; // never answers: the caller must abort
    res.writeHead(200, { "content-type": "application/json" });
    res.end(
      JSON.stringify({
        id: "msg_01",
        type: "message",
        role: "assistant",
        model: body.model,
        content: [
          { type: "text", text: `echo: ${last}` },
          { type: "tool_use", id: "t1", name: "x", input: {} },
          { type: "text", text: " (done)" },
        ],
        stop_reason: "end_turn",
        usage: { input_tokens: 3, output_tokens: 4 },
      }),
    );
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const addr = server.address() as { port: number };
  baseUrl = `http://127.0.0.1:${addr.port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

describe("AnthropicLlm", () => {
  it("posts a Messages API request with the system prompt beside the turns and returns the text blocks", async () => {
    const llm = new AnthropicLlm({ apiKey: "test-key", baseUrl: `${baseUrl}/` });
    const out = await llm.complete(
      [
        { role: "system", content: "You are a motebit." },
        { role: "user", content: "hello" },
      ],
      { maxTokens: 77 },
    );
    expect(out).toBe("echo: hello (done)");
    expect(llm.id).toBe(`anthropic:${ANTHROPIC_DEFAULT_MODEL}`);
    const req = seen[seen.length - 1];
    expect(req.path).toBe("/v1/messages");
    expect(req.headers["anthropic-version"]).toBe("2023-06-01");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.body).toEqual({
      model: "claude-sonnet-4-5",
      max_tokens: 77,
      system: "You are a motebit.",
      messages: [{ role: "user", content: "hello" }],
    });
  });

  it("uses the model it is given", async () => {
    const llm = new AnthropicLlm({ apiKey: "test-key", baseUrl, model: "claude-haiku-4-5" });
    await llm.complete([{ role: "user", content: "hi" }]);
    expect(seen[seen.length - 1].body.model).toBe("claude-haiku-4-5");
    expect(seen[seen.length - 1].body).not.toHaveProperty("system");
  });

  it("turns an API error into an Error naming the status, type and message", async () => {
    const llm = new AnthropicLlm({ apiKey: "wrong-key", baseUrl });
    await expect(llm.complete([{ role: "user", content: "hi" }])).rejects.toThrow(
      "Anthropic API 401 authentication_error: invalid x-api-key",
    );
  });

  it("stops waiting when the signal aborts", async () => {
    const llm = new AnthropicLlm({ apiKey: "test-key", baseUrl });
    const ac = new AbortController();
    const pending = llm.complete([{ role: "user", content: "hang" }], { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    await expect(pending).rejects.toThrow();
  });

  it("refuses an empty key", () => {
    expect(() => new AnthropicLlm({ apiKey: " " })).toThrow("API key is empty");
  });
});
