// The edge serves MCP 2026-07-28 statelessly through its Durable Object, and a motebit_task run as an MCP task
// lives in the object's SQLite: after the object is reset, the task runs again and ends in a receipt that verifies.
import { abortAllDurableObjects } from "cloudflare:test";
import { expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { post, SERVER_ID } from "./helpers.js";

const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

function stateless(method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) {
  const name = method === "tools/call" ? params.name : method.startsWith("tasks/") ? params.taskId : undefined;
  const headers: Record<string, string> = { "MCP-Protocol-Version": V, "Mcp-Method": method, ...(typeof name === "string" && { "Mcp-Name": name }) };
  const body = { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": caps } } };
  return post(body, { headers, accept: "application/json" });
}

type Body = { id: number; result?: Record<string, unknown>; error?: { code: number } };

it("2026-07-28 at the edge: discover without a session, a tagged call, 404 for initialize, 400 for a header mismatch", async () => {
  const discover = await stateless("server/discover", {});
  expect(discover.headers.get("Mcp-Session-Id")).toBeNull();
  expect(((await discover.json()) as Body).result).toMatchObject({ supportedVersions: [V], resultType: "complete", cacheScope: "private" });
  const call = (await (await stateless("tools/call", { name: "echo", arguments: { text: "edge" } })).json()) as Body;
  expect((call.result!.content as { text: string }[])[0].text).toMatch(/^edge\n\[motebit:/);
  const init = await stateless("initialize", {});
  expect([init.status, ((await init.json()) as Body).error!.code]).toEqual([404, -32601]);
  const mismatch = await post(
    { jsonrpc: "2.0", id: 8, method: "tools/list", params: { _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} } } },
    { headers: { "MCP-Protocol-Version": V, "Mcp-Method": "tools/call" } },
  );
  expect([mismatch.status, ((await mismatch.json()) as Body).error!.code]).toEqual([400, -32020]);
});

it("a motebit_task followed as an MCP task survives an object reset and ends in a receipt that verifies", async () => {
  const created = ((await (await stateless("tools/call", { name: "motebit_task", arguments: { prompt: "1500", required_capabilities: ["slow"] } }, TASKS)).json()) as Body).result!;
  expect(created).toMatchObject({ resultType: "task", status: "working" });

  await abortAllDurableObjects();

  let task: Record<string, unknown> = {};
  for (let i = 0; i < 100; i++) {
    task = ((await (await stateless("tasks/get", { taskId: created.taskId }, TASKS)).json()) as Body).result!;
    if (task.status !== "working") break;
    await new Promise((r) => setTimeout(r, 100));
  }
  expect(task.status).toBe("completed");
  const text = ((task.result as { content: { text: string }[] }).content[0].text);
  const receipt = JSON.parse(text.slice(0, text.lastIndexOf("\n[motebit:")));
  expect(receipt).toMatchObject({ status: "completed", result: "waited 1500ms", motebit_id: SERVER_ID });
  expect((await verifyReceipt(receipt)).valid).toBe(true);
});

it("a non-ASCII tool name travels in the base64 sentinel form of Mcp-Name", async () => {
  // Raw non-ASCII bytes are refused: test/node/edge/raw-non-ascii-mcp-name.test.ts sends them over a real socket.
  const headers = (name: string) => ({ "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": name });
  const body = { jsonrpc: "2.0", id: 9, method: "tools/call", params: { name: "café", arguments: {}, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": {} } } };
  const encoded = await post(body, { headers: headers(`=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode("café")))}?=`), accept: "application/json" });
  expect([encoded.status, ((await encoded.json()) as { error: { code: number } }).error.code]).toEqual([200, -32602]);
});
