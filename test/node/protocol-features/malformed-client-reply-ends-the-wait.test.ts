// A client's answer whose error.message is not a string (`{"toString":1}`) is refused with a 400 naming the field,
// and the call that waited for it ends at once with that reason instead of waiting out the 5-minute reply timeout.
import { afterAll, beforeAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

const headers = (session?: string) => ({
  Authorization: `Bearer ${keys.auth_token}`,
  Accept: "application/json, text/event-stream",
  "Content-Type": "application/json",
  ...(session && { "Mcp-Session-Id": session }),
});

it("a malformed reply to an elicitation is a 400 and ends the waiting call with the reason", async () => {
  const url = `${host.http.url}/mcp`;
  const init = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "t", version: "1" } } };
  const opened = await fetch(url, { method: "POST", headers: headers(), body: JSON.stringify(init) });
  const session = opened.headers.get("Mcp-Session-Id")!;
  await opened.arrayBuffer();

  const started = Date.now();
  const call = await fetch(url, { method: "POST", headers: headers(session), body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "ask_user", arguments: {} } }) });
  const reader = call.body!.pipeThrough(new TextDecoderStream()).getReader();
  let text = "";
  while (!/"method":"elicitation\/create"/.test(text)) text += (await reader.read()).value ?? "";
  const askId = /"id":"([^"]+)","method":"elicitation\/create"/.exec(text)![1];

  const reply = await fetch(url, { method: "POST", headers: headers(session), body: JSON.stringify({ jsonrpc: "2.0", id: askId, error: { code: -1, message: { toString: 1 } } }) });
  expect(reply.status).toBe(400);
  expect(((await reply.json()) as { error: unknown }).error).toEqual({ code: -32602, message: 'Invalid response: "error.message" must be a string' });

  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) text += chunk.value;
  expect(text).toContain("cannot ask: the client's answer was malformed: Invalid response: \\\"error.message\\\" must be a string");
  expect(Date.now() - started).toBeLessThan(10_000);
});
