// JSON or SSE as the client's Accept prefers; notifications and client responses get 202 and no body.
import { describe, expect, it } from "vitest";
import { initialize, INITIALIZE, post, rpc } from "./helpers.js";

describe("response modes", () => {
  it("Accept: application/json → a JSON body", async () => {
    const res = await post(INITIALIZE, { accept: "application/json" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("application/json");
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: 1, result: { serverInfo: { name: "motebit" } } });
  });

  it("both accepted equally → JSON", async () => {
    const res = await post(INITIALIZE, { accept: "application/json, text/event-stream" });
    expect(res.headers.get("Content-Type")).toContain("application/json");
  });

  it("Accept: text/event-stream only → one SSE message event, then the stream ends", async () => {
    const session = await initialize();
    const res = await post(rpc("ping", {}, 7), { session, accept: "text/event-stream" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    expect(await res.text()).toBe(`event: message\ndata: ${JSON.stringify({ jsonrpc: "2.0", id: 7, result: {} })}\n\n`);
  });

  it("SSE preferred by q-value → SSE, and initialize still sets the session header", async () => {
    const res = await post(INITIALIZE, { accept: "application/json;q=0.5, text/event-stream" });
    expect(res.headers.get("Content-Type")).toContain("text/event-stream");
    expect(res.headers.get("Mcp-Session-Id")).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(await res.text()).toMatch(/^event: message\ndata: \{.*"serverInfo".*\}\n\n$/);
  });

  it("a client that accepts neither → 406", async () => {
    expect((await post(INITIALIZE, { accept: "text/html" })).status).toBe(406);
  });

  it("a notification → 202, no body", async () => {
    const session = await initialize();
    const res = await post({ jsonrpc: "2.0", method: "notifications/initialized" }, { session });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });

  it("a client's JSON-RPC response → 202, no body", async () => {
    const session = await initialize();
    const res = await post({ jsonrpc: "2.0", id: 5, result: {} }, { session });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe("");
  });
});
