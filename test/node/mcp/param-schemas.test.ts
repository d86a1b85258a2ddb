import { describe, expect, it } from "vitest";
import { clientMessageProblem } from "../../../src/mcp/param-schemas.js";

const THROWS = { toString: 1 };
const request = (method: string, params: unknown) => ({ jsonrpc: "2.0", id: 9, method, params });

describe("client fields are type-checked against MCP's schema before use", () => {
  it.each<[unknown, string, string]>([
    [request("tools/call", { name: THROWS }), "tools/call", 'Invalid params for tools/call: "params.name" must be a string'],
    [request("tools/call", {}), "tools/call", 'Invalid params for tools/call: "params.name" is required'],
    [request("tools/call", { name: "x", requestState: 5 }), "tools/call", 'Invalid params for tools/call: "params.requestState" must be a string'],
    [request("prompts/get", { name: "p", arguments: { a: 1 } }), "prompts/get", 'Invalid params for prompts/get: "params.arguments.a" must be a string'],
    [request("resources/subscribe", { uri: THROWS }), "resources/subscribe", 'Invalid params for resources/subscribe: "params.uri" must be a string'],
    [request("completion/complete", { ref: { type: "ref/prompt" }, argument: { name: "a" } }), "completion/complete", 'Invalid params for completion/complete: "params.argument.value" is required'],
    [request("tasks/get", { taskId: THROWS }), "tasks/get", 'Invalid params for tasks/get: "params.taskId" must be a string'],
    [request("ping", { _meta: { progressToken: 1.5 } }), "ping", ""],
    [{ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 1.5 } }, "notifications/cancelled", 'Invalid params for notifications/cancelled: "params.requestId" must be a string or an integer'],
    [{ jsonrpc: "2.0", id: { valueOf: {}, toString: {} }, result: {} }, "response", 'Invalid response: "id" must be a string or an integer'],
    [{ jsonrpc: "2.0", id: "motebit-1", error: { code: "x", message: "m" } }, "response", 'Invalid response: "error.code" must be an integer'],
  ])("%j", (message, method, text) => {
    const bad = clientMessageProblem(message);
    if (text === "") return expect(bad).toBeNull();
    expect(bad?.method).toBe(method);
    expect(bad?.error.code).toBe(-32602);
    expect(bad?.error.message).toBe(text);
  });

  it("keeps the id of a request, and of a reply when it is usable, to answer or route with", () => {
    expect(clientMessageProblem(request("tools/call", { name: 1 }))?.id).toBe(9);
    expect(clientMessageProblem({ jsonrpc: "2.0", id: "motebit-3", error: { code: 1, message: THROWS } })?.id).toBe("motebit-3");
    expect(clientMessageProblem({ jsonrpc: "2.0", id: THROWS, result: {} })?.id).toBeNull();
  });

  it("passes well-typed messages and methods whose params it does not read", () => {
    expect(clientMessageProblem(request("tools/call", { name: "echo", arguments: { text: "x" }, _meta: { progressToken: "p" } }))).toBeNull();
    expect(clientMessageProblem({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: "r", reason: "user" } })).toBeNull();
    expect(clientMessageProblem({ jsonrpc: "2.0", id: "motebit-1", result: { action: "accept" } })).toBeNull();
    expect(clientMessageProblem(request("x/unknown", { anything: THROWS }))).toBeNull();
  });
});
