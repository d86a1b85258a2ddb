// At the edge, a tool that asks its client (elicitation, sampling) waits in the Durable Object while the
// request rides on the POST's SSE stream; the client's answer, a later POST, is routed to it. Black box: the
// real local edge serving the conformance fixtures, driven by the official SDK client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CreateMessageRequestSchema, ElicitRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

let edge: LocalEdge;
let client: Client;

beforeAll(async () => {
  edge = await startLocalEdge({ MOTEBIT_AUTH_TOKEN: keys.auth_token }, { args: ["-c", "scripts/conformance/wrangler.toml"] });
  client = new Client({ name: "edge-asks", version: "1.0.0" }, { capabilities: { elicitation: {}, sampling: {} } });
  client.setRequestHandler(ElicitRequestSchema, async (r) => ({ action: "accept", content: { response: `seen: ${r.params.message}` } }));
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({ role: "assistant", model: "m", content: { type: "text", text: "from the client's model" } }));
  await client.connect(new StreamableHTTPClientTransport(new URL(`${edge.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${keys.auth_token}` } } }));
}, 90_000);

afterAll(async () => {
  await client?.close();
  await edge?.stop();
});

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe("edge: server-to-client requests", () => {
  it("elicitation: the answer reaches the waiting call in the Durable Object", async () => {
    const r = await client.callTool({ name: "test_elicitation", arguments: { message: "Your name?" } });
    expect(text(r)).toMatch(/^User response: action=accept, content=\{"response":"seen: Your name\?"\}\n\[motebit:/);
  });

  it("sampling: the client's model answers", async () => {
    expect(text(await client.callTool({ name: "test_sampling", arguments: { prompt: "hi" } }))).toMatch(/^LLM response: from the client's model\n/);
  });
});
