// Foreign browser origins are refused (DNS rebinding); allowed ones get CORS; preflight needs no auth.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { BASE, INITIALIZE, mcpRequest, post } from "./helpers.js";

function preflight(origin: string): Promise<Response> {
  return SELF.fetch(`${BASE}/mcp`, {
    method: "OPTIONS",
    headers: { Origin: origin, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type, mcp-session-id" },
  });
}

describe("Origin", () => {
  it("a present foreign Origin → 403, before auth", async () => {
    for (const auth of [undefined, null]) {
      const res = await post(INITIALIZE, { auth, headers: { Origin: "https://evil.example.com" } });
      expect(res.status).toBe(403);
    }
  });

  it("our own https origin, loopback origins and MOTEBIT_ALLOWED_ORIGINS are served, with CORS headers", async () => {
    const own = await SELF.fetch(new Request("https://edge.test/mcp", mcpRequest(INITIALIZE, { headers: { Origin: "https://edge.test" } })));
    expect(own.status).toBe(200);
    expect(own.headers.get("Access-Control-Allow-Origin")).toBe("https://edge.test");
    for (const origin of ["http://localhost:6274", "http://127.0.0.1:3000", "http://[::1]:8080", "https://app.example.com"]) {
      const res = await post(INITIALIZE, { headers: { Origin: origin } });
      expect(res.status, origin).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin")).toBe(origin);
      expect(res.headers.get("Access-Control-Expose-Headers")).toContain("Mcp-Session-Id");
    }
  });

  it("DNS rebinding: a page on http://evil.example whose name resolves to this server is refused, Host and all", async () => {
    const rebound = new Request("http://evil.example:8787/mcp", mcpRequest(INITIALIZE, { headers: { Origin: "http://evil.example:8787" } }));
    const res = await SELF.fetch(rebound);
    expect(res.status).toBe(403);
    expect(new URL(rebound.url).host).toBe("evil.example:8787");
    const health = await SELF.fetch("http://evil.example:8787/health", { headers: { Origin: "http://evil.example:8787" } });
    expect(health.status).toBe(403);
  });

  it("no Origin (a non-browser agent) is not a browser: served", async () => {
    expect((await post(INITIALIZE)).status).toBe(200);
  });
});

describe("CORS preflight", () => {
  it("passes without auth and allows the MCP headers", async () => {
    const res = await preflight("https://app.example.com");
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBe("https://app.example.com");
    const allowed = res.headers.get("Access-Control-Allow-Headers")!.toLowerCase();
    for (const h of ["authorization", "content-type", "mcp-session-id", "mcp-protocol-version", "last-event-id"]) expect(allowed).toContain(h);
    // 2026-07-28 requests carry their method and name in headers too: without these no browser can send one.
    for (const h of ["mcp-method", "mcp-name"]) expect(allowed.split(",")).toContain(h);
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("POST");
    expect(res.headers.get("Access-Control-Allow-Methods")).toContain("DELETE");
    expect(res.headers.get("Access-Control-Expose-Headers")).toContain("Mcp-Session-Id");
  });

  it("from a foreign origin → 403", async () => {
    expect((await preflight("https://evil.example.com")).status).toBe(403);
  });
});

describe("public reads over https", () => {
  it("another site reads /health, the log's head and the signed cards; /mcp still refuses it", async () => {
    const origin = "https://auditor.example";
    for (const path of ["/health", "/log/head", "/.well-known/mcp/server-card.json", "/.well-known/agent-card.json", "/server.json"]) {
      const res = await SELF.fetch(`https://edge.test${path}`, { headers: { Origin: origin } });
      expect(res.status, path).toBe(200);
      expect(res.headers.get("Access-Control-Allow-Origin"), path).toBe(origin);
    }
    const res = await SELF.fetch(new Request("https://edge.test/mcp", mcpRequest(INITIALIZE, { headers: { Origin: origin } })));
    expect(res.status).toBe(403);
  });
});
