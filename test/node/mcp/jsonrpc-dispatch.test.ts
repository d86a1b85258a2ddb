import { describe, expect, it } from "vitest";
import { makeMotebit, peer } from "../helpers/motebit.js";

describe("JSON-RPC dispatch", () => {
  it("answers initialize with a negotiated version and its capabilities", async () => {
    const h = await makeMotebit();
    const r = await h.rpc(peer(), "initialize", { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "relay-forward", version: "1" } });
    expect(r.result.protocolVersion).toBe("2025-03-26");
    expect(Object.keys(r.result.capabilities).sort()).toEqual(["completions", "logging", "prompts", "resources", "tools"]);
    expect(r.result.capabilities.resources).toEqual({ subscribe: true, listChanged: false });
    const future = await h.rpc(peer(), "initialize", { protocolVersion: "2099-01-01" });
    expect(future.result.protocolVersion).toBe("2025-11-25");
  });

  it("returns null for notifications and client responses", async () => {
    const h = await makeMotebit();
    expect(await h.receive({ jsonrpc: "2.0", method: "notifications/initialized" }, peer())).toBeNull();
    expect(await h.receive({ jsonrpc: "2.0", id: 3, result: {} }, peer())).toBeNull();
  });

  it("rejects malformed messages and unknown methods with JSON-RPC errors", async () => {
    const h = await makeMotebit();
    const cases: [unknown, number][] = [
      [42, -32600],
      [{ jsonrpc: "1.0", id: 1, method: "ping" }, -32600],
      [{ jsonrpc: "2.0", id: { x: 1 }, method: "ping" }, -32600],
      [{ jsonrpc: "2.0", id: 1, method: "ping", params: [1] }, -32600],
      [{ jsonrpc: "2.0", id: 1, method: "nope" }, -32601],
      [{ jsonrpc: "2.0", id: 1, method: "toString" }, -32601],
      [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: 7 } }, -32602],
      [{ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "missing" } }, -32602],
    ];
    for (const [msg, code] of cases) {
      const r = (await h.receive(msg, peer())) as any;
      expect(r.error.code, JSON.stringify(msg)).toBe(code);
    }
  });

  it("answers ping", async () => {
    const h = await makeMotebit();
    expect((await h.rpc(peer(), "ping")).result).toEqual({});
  });
});
