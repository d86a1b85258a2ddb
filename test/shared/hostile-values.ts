// Values whose String() throws (`{"toString":1}`, `{"valueOf":{},"toString":{}}`) in every client field the
// server reads, on both HTTP hosts: each is -32602 naming the field (a 400 for notifications and replies, which
// have no id to answer), an audit row like any refusal, never a 5xx and never a hang.
// test/node/local/hostile-values-over-http.test.ts runs it against `motebit-local serve` over a real socket,
// test/workerd/edge/hostile-values.test.ts against the real Worker and Durable Object.
import { describe, expect, it } from "vitest";
import { STATELESS_VERSION, statelessMeta } from "./stateless-request.js";

export interface ValuesHost {
  fetch(request: Request): Promise<Response>;
  /** The static bearer token's header value. */
  auth: string;
  /** The audit log's rows whose tool starts with `rpc:`, newest first. */
  rpcAuditRows(): Promise<{ tool: string; outcome: string }[]>;
}

const URL_MCP = "http://127.0.0.1/mcp";
const THROWS = { toString: 1 };
const THROWS_BOTH = { valueOf: {}, toString: {} };
const V = STATELESS_VERSION;
const META = statelessMeta();

function request(h: ValuesHost, body: unknown, headers: Record<string, string> = {}): Request {
  const all = new Headers({ Authorization: h.auth, Accept: "application/json, text/event-stream", "Content-Type": "application/json", ...headers });
  return new Request(URL_MCP, { method: "POST", headers: all, body: JSON.stringify(body) });
}

async function open(h: ValuesHost): Promise<string> {
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "hostile", version: "1" } } };
  const res = await h.fetch(request(h, init));
  expect(res.status).toBe(200);
  await res.arrayBuffer();
  return res.headers.get("Mcp-Session-Id")!;
}

async function answer(res: Response): Promise<{ status: number; error: { code: number; message: string } }> {
  const text = await res.text();
  // A JSON body or one SSE message event: either way the JSON-RPC message is the last data line.
  const json = text.startsWith("{") ? text : text.split("\n").filter((l) => l.startsWith("data: ")).pop()!.slice(6);
  return { status: res.status, error: (JSON.parse(json) as { error: { code: number; message: string } }).error };
}

export function describeHostileValues(hostName: string, makeHost: () => Promise<ValuesHost>) {
  describe(`values whose String() throws (${hostName})`, () => {
    it.each<[string, Record<string, unknown>, string]>([
      ["tools/call", { name: THROWS, arguments: {} }, '"params.name" must be a string'],
      ["tools/call", { name: "echo", arguments: "text" }, '"params.arguments" must be an object'],
      ["prompts/get", { name: THROWS }, '"params.name" must be a string'],
      ["prompts/get", { name: "p", arguments: { a: THROWS } }, '"params.arguments.a" must be a string'],
      ["resources/read", { uri: THROWS }, '"params.uri" must be a string'],
      ["resources/subscribe", { uri: THROWS }, '"params.uri" must be a string'],
      ["resources/unsubscribe", { uri: THROWS_BOTH }, '"params.uri" must be a string'],
      ["completion/complete", { ref: { type: "ref/prompt", name: "p" }, argument: { name: "a", value: THROWS } }, '"params.argument.value" must be a string'],
      ["logging/setLevel", { level: THROWS }, '"params.level" must be a string'],
      ["tools/call", { name: "echo", arguments: { text: "x" }, _meta: { progressToken: THROWS } }, '"params._meta.progressToken" must be a string or an integer'],
    ])("%s %j: -32602 naming the field, audited", async (method, params, problem) => {
      const h = await makeHost();
      const session = await open(h);
      const before = (await h.rpcAuditRows()).length;
      const res = await h.fetch(request(h, { jsonrpc: "2.0", id: 2, method, params }, { "Mcp-Session-Id": session }));
      const { status, error } = await answer(res);
      expect(status).toBe(200);
      expect(error).toEqual({ code: -32602, message: `Invalid params for ${method}: ${problem}` });
      const rows = await h.rpcAuditRows();
      expect(rows.length).toBe(before + 1);
      expect(rows[0]).toEqual({ tool: `rpc:${method}`, outcome: "invalid" });
    });

    it.each<[string, Record<string, unknown>, string]>([
      ["notifications/cancelled", { requestId: THROWS, reason: "x" }, 'Invalid params for notifications/cancelled: "params.requestId" must be a string or an integer'],
      ["notifications/cancelled", { requestId: 5, reason: THROWS }, 'Invalid params for notifications/cancelled: "params.reason" must be a string'],
    ])("session %s %j: a 400 with -32602, audited", async (method, params, message) => {
      const h = await makeHost();
      const session = await open(h);
      const before = (await h.rpcAuditRows()).length;
      const res = await h.fetch(request(h, { jsonrpc: "2.0", method, params }, { "Mcp-Session-Id": session }));
      expect(await answer(res)).toEqual({ status: 400, error: { code: -32602, message } });
      expect((await h.rpcAuditRows()).length).toBe(before + 1);
    });

    it("stateless (2026-07-28) notifications/cancelled with a hostile requestId or reason: a 400 with -32602", async () => {
      const h = await makeHost();
      const headers = { "MCP-Protocol-Version": V, "Mcp-Method": "notifications/cancelled" };
      for (const [params, field] of [
        [{ requestId: THROWS, reason: "x" }, "params.requestId"],
        [{ requestId: 1, reason: THROWS }, "params.reason"],
      ] as const) {
        const res = await h.fetch(request(h, { jsonrpc: "2.0", method: "notifications/cancelled", params: { ...params, _meta: META } }, headers));
        const { status, error } = await answer(res);
        expect(status).toBe(400);
        expect(error.code).toBe(-32602);
        expect(error.message).toContain(`"${field}"`);
      }
    });

    it("a client reply with a hostile id or error.message: a 400 with -32602 naming the field, audited", async () => {
      const h = await makeHost();
      const session = await open(h);
      const before = (await h.rpcAuditRows()).length;
      const cases: [unknown, string][] = [
        [{ jsonrpc: "2.0", id: "motebit-1", error: { code: -1, message: THROWS } }, 'Invalid response: "error.message" must be a string'],
        [{ jsonrpc: "2.0", id: THROWS_BOTH, result: {} }, 'Invalid response: "id" must be a string or an integer'],
        [{ jsonrpc: "2.0", id: "motebit-1", result: "yes" }, 'Invalid response: "result" must be an object'],
      ];
      for (const [body, message] of cases) {
        const res = await h.fetch(request(h, body, { "Mcp-Session-Id": session }));
        expect(await answer(res)).toEqual({ status: 400, error: { code: -32602, message } });
      }
      const rows = await h.rpcAuditRows();
      expect(rows.length).toBe(before + cases.length);
      expect(rows[0]).toEqual({ tool: "rpc:response", outcome: "invalid" });
    });

    it("a stateless (2026-07-28) tasks/get whose taskId throws: -32602 naming params.taskId, audited", async () => {
      const h = await makeHost();
      const before = (await h.rpcAuditRows()).length;
      const headers = { "MCP-Protocol-Version": V, "Mcp-Method": "tasks/get" };
      const caps = { ...META, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
      const res = await h.fetch(request(h, { jsonrpc: "2.0", id: 4, method: "tasks/get", params: { taskId: THROWS, _meta: caps } }, headers));
      expect((await answer(res)).error).toEqual({ code: -32602, message: 'Invalid params for tasks/get: "params.taskId" must be a string' });
      const rows = await h.rpcAuditRows();
      expect(rows.length).toBe(before + 1);
      expect(rows[0]).toEqual({ tool: "rpc:tasks/get", outcome: "invalid" });
    });

    it("a stateless (2026-07-28) tools/call whose name throws: -32602 naming params.name (the revision answers it with 200)", async () => {
      const h = await makeHost();
      const headers = { "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "echo" };
      const res = await h.fetch(request(h, { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: THROWS, arguments: {}, _meta: META } }, headers));
      expect(await answer(res)).toEqual({ status: 200, error: { code: -32602, message: 'Invalid params for tools/call: "params.name" must be a string' } });
    });
  });
}
