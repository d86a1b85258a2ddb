// A requestState is signed with the key of the motebit that asked: another motebit serving the same tools (a
// fleet's neighbour, with its own key) refuses it, whatever the caller, tool and arguments.
import { afterAll, beforeAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";

const V = "2026-07-28";
let a: ProtocolHost;
let b: ProtocolHost;
beforeAll(async () => {
  a = await startProtocolHost();
  b = await startProtocolHost({}, [], undefined, keys.stranger.seed_hex);
});
afterAll(async () => {
  await a?.close();
  await b?.close();
});

async function askUser(host: ProtocolHost, extra: Record<string, unknown> = {}) {
  const res = await fetch(`${host.http.url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "ask_user" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "ask_user", arguments: {}, ...extra, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { elicitation: {} } } },
    }),
  });
  return (await res.json()) as { result?: Record<string, unknown>; error?: { code: number; message: string } };
}

it("a state minted by one motebit is refused by another with the same tools and the same caller", async () => {
  expect(a.motebit.motebitId).not.toBe(b.motebit.motebitId);
  const state = (await askUser(a)).result!.requestState as string;
  const answers = { inputResponses: { "elicitation/create#0": { action: "accept", content: { colour: "teal" } } }, requestState: state };
  const there = await askUser(b, answers);
  expect(there.error?.code).toBe(-32602);
  expect(there.error?.message).toMatch(/^Invalid requestState/);
  const here = await askUser(a, answers);
  expect(here.result?.resultType).toBe("complete");
});
