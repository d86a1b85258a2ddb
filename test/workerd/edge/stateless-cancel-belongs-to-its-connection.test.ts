// At the edge too, a 2026-07-28 request has no session: a notifications/cancelled from another POST, with the same
// static token and the same id, does not reach it (issue 19 item 7).
import { expect, it } from "vitest";
import { post } from "./helpers.js";

const V = "2026-07-28";
const meta = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} };

it("another static-token client cannot cancel a stateless request by its id", async () => {
  const running = post(
    { jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "slow", arguments: { ms: 800 }, _meta: meta } },
    { accept: "application/json", headers: { "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "slow" } },
  );
  await new Promise((r) => setTimeout(r, 200));
  const cancel = await post(
    { jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 7, reason: "not yours", _meta: meta } },
    { accept: "application/json", headers: { "MCP-Protocol-Version": V, "Mcp-Method": "notifications/cancelled" } },
  );
  expect(cancel.status).toBe(202);
  const body = (await (await running).json()) as { result: { content: { text: string }[]; isError?: boolean } };
  expect(body.result.isError).not.toBe(true);
  expect(body.result.content[0].text).toMatch(/^waited 800ms/);
});
