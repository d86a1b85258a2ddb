// Malformed or oversized requests are refused before they reach the motebit.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, initialize, INITIALIZE, post, rpc, STATIC } from "./helpers.js";

const MiB = 1024 * 1024;

describe("request limits", () => {
  it("a declared Content-Length above 1 MiB → 413", async () => {
    const body = JSON.stringify({ ...rpc("ping"), params: { pad: "x".repeat(MiB) } });
    const res = await post(body);
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: { code: -32000 } });
  });

  it("a streamed body (no Content-Length) growing past 1 MiB → 413", async () => {
    const chunk = new TextEncoder().encode("x".repeat(64 * 1024));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent > MiB + chunk.length) return c.close();
        sent += chunk.length;
        c.enqueue(chunk);
      },
    });
    const res = await SELF.fetch(`${BASE}/mcp`, {
      method: "POST",
      headers: { Authorization: STATIC, "Content-Type": "application/json", Accept: "application/json" },
      body,
    });
    expect(res.status).toBe(413);
  });

  it("a body just under the cap is read", async () => {
    const session = await initialize();
    const res = await post({ ...rpc("ping"), params: { pad: "x".repeat(MiB - 200) } }, { session });
    expect(res.status).toBe(200);
  });

  it("a JSON-RPC batch → 400", async () => {
    const res = await post([INITIALIZE, rpc("ping", {}, 2)]);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } });
  });

  it("bad JSON → 400 with JSON-RPC parse error -32700", async () => {
    const res = await post('{"jsonrpc": "2.0", "method": ');
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32700 } });
  });

  it("JSON that is not a JSON-RPC message → 400 invalid request", async () => {
    const res = await post({ hello: "world" });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: -32600 } });
  });

  it("an unsupported MCP-Protocol-Version → 400; supported or absent is fine", async () => {
    const session = await initialize();
    const bad = await post(rpc("ping"), { session, headers: { "MCP-Protocol-Version": "1999-01-01" } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toContain("1999-01-01");
    expect((await post(rpc("ping"), { session, headers: { "MCP-Protocol-Version": "2025-06-18" } })).status).toBe(200);
    expect((await post(rpc("ping"), { session })).status).toBe(200);
  });

  it("GET /mcp → 405 with Allow (no server-initiated stream)", async () => {
    const res = await SELF.fetch(`${BASE}/mcp`, { headers: { Authorization: STATIC, Accept: "text/event-stream" } });
    expect(res.status).toBe(405);
    expect(res.headers.get("Allow")).toBe("POST, DELETE, OPTIONS");
  });

  it("an unknown path is 404 — after auth", async () => {
    expect((await SELF.fetch(`${BASE}/nope`, { headers: { Authorization: STATIC } })).status).toBe(404);
    expect((await SELF.fetch(`${BASE}/nope`)).status).toBe(401);
  });
});
