// The CORS headers the app sends, exactly: a preflight (any path, no auth), a served response to an allowed
// origin, and nothing for a caller that sends no Origin. What browsers read, so pinned header by header.
import { describe, expect, it } from "vitest";
import { nodeApp } from "../helpers/node-app.js";

const ORIGIN = "http://localhost:6274";
const headersOf = (res: Response) => Object.fromEntries([...res.headers].filter(([k]) => k.startsWith("access-control-") || k === "vary"));

describe("CORS", () => {
  it("a preflight from an allowed origin: 204 with every header, no auth asked", async () => {
    const { app } = await nodeApp();
    const res = await app.fetch(
      new Request("http://127.0.0.1:3100/mcp", {
        method: "OPTIONS",
        headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "authorization, content-type" },
      }),
    );
    expect(res.status).toBe(204);
    expect(await res.text()).toBe("");
    expect(headersOf(res)).toEqual({
      "access-control-allow-origin": ORIGIN,
      "access-control-allow-methods": "GET,POST,DELETE,OPTIONS",
      "access-control-allow-headers": "Authorization,Content-Type,Accept,Mcp-Session-Id,MCP-Protocol-Version,Mcp-Method,Mcp-Name,Last-Event-ID,DPoP",
      "access-control-expose-headers": "Mcp-Session-Id,Retry-After,WWW-Authenticate,DPoP-Nonce",
      "access-control-max-age": "86400",
      vary: "Origin",
    });
  });

  it("a preflight allows the Mcp-Param-* headers the served tools declare, each once, and no header a name could not be", async () => {
    const tool = (name: string, properties: Record<string, unknown>) => ({
      definition: { name, description: name, risk: "R0_READ", inputSchema: { type: "object", properties } },
      handler: async () => ({ ok: true, data: name }),
    });
    const { app } = await nodeApp({}, {
      tools: [
        tool("by_region", { region: { type: "string", "x-mcp-header": "Region" }, nested: { type: "object", properties: { id: { type: "string", "x-mcp-header": "Tenant-Id" } } } }),
        tool("also_region", { area: { type: "string", "x-mcp-header": "region" } }),
        tool("unsendable", { bad: { type: "string", "x-mcp-header": "Not A Token" } }),
      ],
    });
    const res = await app.fetch(
      new Request("http://127.0.0.1:3100/mcp", {
        method: "OPTIONS",
        headers: { Origin: ORIGIN, "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "mcp-method,mcp-name,mcp-param-region,mcp-param-tenant-id" },
      }),
    );
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Headers")).toBe(
      "Authorization,Content-Type,Accept,Mcp-Session-Id,MCP-Protocol-Version,Mcp-Method,Mcp-Name,Last-Event-ID,DPoP,Mcp-Param-Region,Mcp-Param-Tenant-Id",
    );
  });

  it("a preflight without an Origin names no origin", async () => {
    const { app } = await nodeApp();
    const res = await app.fetch(new Request("http://127.0.0.1:3100/mcp", { method: "OPTIONS" }));
    expect(res.status).toBe(204);
    expect(res.headers.get("Access-Control-Allow-Origin")).toBeNull();
    expect(res.headers.get("Access-Control-Allow-Methods")).toBe("GET,POST,DELETE,OPTIONS");
  });

  it("a response to an allowed origin names it and exposes the session, retry and challenge headers", async () => {
    const { app } = await nodeApp();
    for (const path of ["/health", "/mcp"]) {
      const res = await app.fetch(new Request(`http://127.0.0.1:3100${path}`, { headers: { Origin: ORIGIN } }));
      expect(headersOf(res), path).toEqual({
        "access-control-allow-origin": ORIGIN,
        "access-control-expose-headers": "Mcp-Session-Id,Retry-After,WWW-Authenticate,DPoP-Nonce",
        vary: "Origin",
      });
    }
  });

  it("a foreign origin is refused before any CORS header", async () => {
    const { app } = await nodeApp();
    for (const method of ["OPTIONS", "GET"]) {
      const res = await app.fetch(new Request("http://127.0.0.1:3100/health", { method, headers: { Origin: "https://evil.example.com" } }));
      expect(res.status).toBe(403);
      expect(headersOf(res)).toEqual({});
    }
  });

  it("no Origin (not a browser), no CORS headers at all", async () => {
    const { app } = await nodeApp();
    const res = await app.fetch(new Request("http://127.0.0.1:3100/health"));
    expect(res.status).toBe(200);
    expect(headersOf(res)).toEqual({});
  });
});
