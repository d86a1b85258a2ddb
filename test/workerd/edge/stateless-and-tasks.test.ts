// The edge serves MCP 2026-07-28 statelessly through its Durable Object, and a motebit_task run as an MCP task
// lives in the object's SQLite: after the object is reset, the task runs again and ends in a receipt that verifies.
import { abortAllDurableObjects } from "cloudflare:test";
import { expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";
import { STATELESS_VERSION, TASKS } from "../../shared/stateless-request.js";
import { BOTH, postStateless, SERVER_ID } from "./helpers.js";

const stateless = (method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) => postStateless(method, params, { caps, id: 7 });

type Body = { id: number; result?: Record<string, unknown>; error?: { code: number } };

it("2026-07-28 at the edge: discover without a session, a tagged call, 404 for initialize, 400 for a header mismatch", async () => {
  const discover = await stateless("server/discover", {});
  expect(discover.headers.get("Mcp-Session-Id")).toBeNull();
  expect(((await discover.json()) as Body).result).toMatchObject({ supportedVersions: [STATELESS_VERSION], resultType: "complete", cacheScope: "private" });
  const call = (await (await stateless("tools/call", { name: "echo", arguments: { text: "edge" } })).json()) as Body;
  expect((call.result!.content as { text: string }[])[0].text).toMatch(/^edge\n\[motebit:/);
  const init = await stateless("initialize", {});
  expect([init.status, ((await init.json()) as Body).error!.code]).toEqual([404, -32601]);
  const mismatch = await postStateless("tools/list", {}, { id: 8, accept: BOTH, headers: { "Mcp-Method": "tools/call" } });
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
  const receipt = receiptOfResult(task.result);
  expect(receipt).toMatchObject({ status: "completed", result: "waited 1500ms", motebit_id: SERVER_ID });
  expect((await verifyReceipt(receipt)).valid).toBe(true);
});

it("a non-ASCII tool name travels in the base64 sentinel form of Mcp-Name", async () => {
  // Raw non-ASCII bytes are refused: test/node/edge/raw-non-ascii-mcp-name.test.ts sends them over a real socket.
  const mcpName = `=?base64?${btoa(String.fromCharCode(...new TextEncoder().encode("café")))}?=`;
  const encoded = await postStateless("tools/call", { name: "café", arguments: {} }, { id: 9, headers: { "Mcp-Name": mcpName } });
  expect([encoded.status, ((await encoded.json()) as { error: { code: number } }).error.code]).toEqual([200, -32602]);
});
