// Over HTTP, progress and log notifications reach the client before the result: the POST is answered as an SSE
// stream once something precedes the result, and as plain JSON when nothing does. logging/setLevel is per session.
import { LoggingMessageNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

describe("progress and logs over HTTP", () => {
  it("progress notifications arrive before the result, in order, only when the request asked with a progressToken", async () => {
    const client = await host.connect();
    const seen: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void seen.push(`log:${n.params.level}:${n.params.data}`));
    const result = await client.callTool({ name: "report", arguments: {} }, undefined, {
      onprogress: (p) => void seen.push(`progress:${p.progress}/${p.total}:${p.message}`),
    });
    seen.push("result");
    expect(seen).toEqual(["log:info:starting", "progress:1/3:step 1", "progress:2/3:step 2", "progress:3/3:step 3", "log:warning:nearly done", "result"]);
    expect((result.content as { text: string }[])[0].text).toMatch(/^reported\n\[motebit:/);
  });

  it("logging/setLevel is honoured per session: below the level nothing is sent, another session keeps its own level", async () => {
    const quiet = await host.connect();
    const chatty = await host.connect();
    await quiet.setLoggingLevel("warning");
    await chatty.setLoggingLevel("debug");
    const quietLogs: string[] = [];
    const chattyLogs: string[] = [];
    quiet.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void quietLogs.push(String(n.params.data)));
    chatty.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void chattyLogs.push(String(n.params.data)));
    await quiet.callTool({ name: "report", arguments: {} });
    await chatty.callTool({ name: "report", arguments: {} });
    expect(quietLogs).toEqual(["nearly done"]);
    expect(chattyLogs).toEqual(["debug detail", "starting", "nearly done"]);
    await expect(quiet.request({ method: "logging/setLevel", params: { level: "loud" } }, LoggingMessageNotificationSchema.pick({}).passthrough())).rejects.toThrow(/level must be one of/);
  });

  it("motebit_task reports its stages: gate passed, tool running, receipt signed", async () => {
    const client = await host.connect();
    const stages: string[] = [];
    const r = await client.callTool({ name: "motebit_task", arguments: { prompt: "x", required_capabilities: ["picture"] } }, undefined, {
      onprogress: (p) => void stages.push(`${p.progress}/${p.total} ${p.message}`),
    });
    expect(r.isError).toBeFalsy();
    expect(stages).toEqual(["1/3 gate passed", "2/3 tool running", "3/3 receipt signed"]);
  });

  it("a call that sends nothing before its result is answered with JSON; one that does, with an SSE stream", async () => {
    const client = await host.connect();
    // The SDK keeps the session id; borrow it for raw POSTs.
    const sessionId = (client.transport as unknown as { sessionId: string }).sessionId;
    const post = (body: unknown) =>
      fetch(`${host.http.url}/mcp`, {
        method: "POST",
        headers: {
          Authorization: `Bearer ${keys.auth_token}`,
          "Content-Type": "application/json",
          Accept: "application/json, text/event-stream",
          "Mcp-Session-Id": sessionId,
          "MCP-Protocol-Version": "2025-11-25",
        },
        body: JSON.stringify(body),
      });
    const plain = await post({ jsonrpc: "2.0", id: 41, method: "tools/call", params: { name: "picture", arguments: {}, _meta: { progressToken: "p" } } });
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    expect(((await plain.json()) as any).result.content[0].text).toMatch(/^here it is/);

    const streamed = await post({ jsonrpc: "2.0", id: 42, method: "tools/call", params: { name: "report", arguments: {}, _meta: { progressToken: "t" } } });
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = (await streamed.text())
      .split("\n\n")
      .filter((e) => e.startsWith("event: message"))
      .map((e) => JSON.parse(e.slice(e.indexOf("data: ") + 6)));
    expect(events.filter((e) => e.method === "notifications/progress").map((e) => e.params.progress)).toEqual([1, 2, 3]);
    expect(events.at(-1)).toMatchObject({ id: 42, result: { content: [{ type: "text" }] } });
  });
});
