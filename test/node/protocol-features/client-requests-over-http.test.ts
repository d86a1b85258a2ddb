// A tool may ask the client during a call (elicitation, sampling): over HTTP the request rides on the POST's SSE
// stream and the client's answer, a later POST, reaches the waiting call. A client that did not declare the
// capability is never asked: the tool learns why.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

const text = (r: unknown) => (r as { content: { text: string }[] }).content[0].text;

describe("server-to-client requests over HTTP", () => {
  it("elicitation: the user's answer reaches the tool", async () => {
    const asked: unknown[] = [];
    const client = await host.connect({ elicit: (p) => (asked.push(p.message), { action: "accept", content: { colour: "green" } }) });
    expect(text(await client.callTool({ name: "ask_user", arguments: {} }))).toMatch(/^accept:green\n\[motebit:/);
    expect(asked).toEqual(["Favourite colour?"]);
  });

  it("sampling: the client's model answers", async () => {
    const client = await host.connect({ sample: () => ({ role: "assistant", model: "test", content: { type: "text", text: "4" } }) });
    expect(text(await client.callTool({ name: "ask_model", arguments: {} }))).toMatch(/^model said 4\n/);
  });

  it("a client without the capability is not asked; the tool gets a clear error", async () => {
    const client = await host.connect();
    const r = await client.callTool({ name: "ask_user", arguments: {} });
    expect(r.isError).toBe(true);
    expect(text(r)).toMatch(/^cannot ask: the client did not declare the elicitation capability/);
  });
});
