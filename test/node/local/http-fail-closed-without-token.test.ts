// HTTP mode with no authToken configured is fail-closed, like the edge: /health answers, /mcp is 401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

describe("serve over http without authToken", () => {
  const tmp = tempDir();
  let server: HttpServe;

  beforeAll(async () => {
    // No --identity: a service motebit whose key is generated in the data dir.
    server = await startHttpServe(["--data-dir", tmp.dir, "--serve-port", String(await freePort())]);
  });
  afterAll(async () => {
    expect(await server?.stop()).toBe(0);
    tmp.cleanup();
  });

  it("says on stderr that only signed tokens are accepted", () => {
    expect(server.stderr()).toContain("auth: signed tokens only (no authToken configured)");
  });

  it("refuses every /mcp request with 401 and says what to configure", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    for (const headers of [{}, { authorization: "Bearer anything" }] as Record<string, string>[]) {
      const res = await fetch(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json", ...headers }, body });
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "unauthorized — set authToken or use a motebit signed token" });
    }
  });

  it("still answers /health", async () => {
    const res = await fetch(`${server.url}/health`);
    expect(res.status).toBe(200);
    expect(((await res.json()) as { status: string }).status).toBe("ok");
  });
});
