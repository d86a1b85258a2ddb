// Streamable HTTP sessions (docs/protocol.md §8): created by initialize, required after, 404 when gone or foreign.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, initialize, INITIALIZE, keys, objectRows, post, rpc, signedAuth, STATIC } from "./helpers.js";

function del(session: string | null, auth = STATIC): Promise<Response> {
  const headers: Record<string, string> = { Authorization: auth };
  if (session) headers["Mcp-Session-Id"] = session;
  return SELF.fetch(`${BASE}/mcp`, { method: "DELETE", headers });
}

describe("MCP sessions", () => {
  it("initialize answers with a fresh Mcp-Session-Id (visible ASCII, 128 bits)", async () => {
    const res = await post(INITIALIZE);
    expect(res.status).toBe(200);
    const id = res.headers.get("Mcp-Session-Id");
    expect(id).toMatch(/^[\x21-\x7e]{32,}$/);
    const body = (await res.json()) as { result: { protocolVersion: string; serverInfo: { name: string } } };
    expect(body.result.protocolVersion).toBe("2025-03-26");
    expect(await initialize()).not.toBe(id);
  });

  it("a request without Mcp-Session-Id → 400", async () => {
    const res = await post(rpc("tools/list"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32000 } });
  });

  it("an unknown session → 404", async () => {
    const res = await post(rpc("tools/list"), { session: "0123456789abcdef0123456789abcdef" });
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32001 } });
  });

  it("a session presented by another principal → 404, and it still works for its owner", async () => {
    const session = await initialize(STATIC);
    expect((await post(rpc("ping"), { auth: await signedAuth("known_caller"), session })).status).toBe(404);
    expect((await post(rpc("ping"), { session })).status).toBe(200);
  });

  it("DELETE /mcp closes the session; after that it is 404", async () => {
    const session = await initialize();
    expect((await post(rpc("ping"), { session })).status).toBe(200);
    expect((await del(session)).status).toBe(204);
    expect((await post(rpc("ping"), { session })).status).toBe(404);
    expect((await del(session)).status).toBe(404);
  });

  it("DELETE needs the session header (400) and the session's own principal (404)", async () => {
    expect((await del(null)).status).toBe(400);
    const session = await initialize();
    expect((await del(session, await signedAuth("known_caller"))).status).toBe(404);
    expect((await del(session)).status).toBe(204);
  });

  it("beyond 32 live sessions a caller's least recently used one is evicted", async () => {
    const auth = () => signedAuth("known_caller");
    const first = await initialize(await auth());
    for (let i = 0; i < 32; i++) await initialize(await auth());
    const live = await objectRows<{ n: number }>("SELECT count(*) AS n FROM mcp_sessions WHERE caller_id = ?", keys.known_caller.sovereign_motebit_id);
    expect(live[0].n).toBe(32);
    expect((await post(rpc("ping"), { auth: await auth(), session: first })).status).toBe(404);
  });
});
