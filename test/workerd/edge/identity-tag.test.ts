// Tool results over the edge carry the motebit's identity tag (the core adds it; the edge must deliver it intact).
import { describe, expect, it } from "vitest";
import { identityTag } from "../../../src/protocol/index.js";
import { initialize, keys, post, rpc, SERVER_ID } from "./helpers.js";

const TAG = identityTag(SERVER_ID, keys.server.public_key_hex);

async function callTool(name: string, args: Record<string, unknown>, accept?: string) {
  const session = await initialize();
  const res = await post(rpc("tools/call", { name, arguments: args }), { session, accept });
  expect(res.status).toBe(200);
  return res;
}

describe("identity tag", () => {
  it("a served tool's result ends with the tag", async () => {
    const body = (await (await callTool("echo", { text: "hello edge" })).json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0].text).toBe(`hello edge\n${TAG}`);
  });

  it("motebit_identity's result ends with the tag, over SSE too", async () => {
    const text = await (await callTool("motebit_identity", {}, "text/event-stream")).text();
    const data = JSON.parse(text.split("\n").find((l) => l.startsWith("data: "))!.slice(6));
    const out: string = data.result.content[0].text;
    expect(out.endsWith(`\n${TAG}`)).toBe(true);
    expect(JSON.parse(out.slice(0, -TAG.length - 1))).toMatchObject({ motebit_id: SERVER_ID, public_key: keys.server.public_key_hex });
  });
});
