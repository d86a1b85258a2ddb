// Failed authentication at /mcp is limited per source (serve over http, the real CLI; issue #42): 30 bad tokens from
// 127.0.0.2 are each 401, after that every request from it, its right token too, is 429 + Retry-After with
// {error, hint}, while a caller on 127.0.0.1 with the right token is answered as before. Before the limit, the 31st
// bad token was one more 401, and so was the 1,000th.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchFrom, FLOOD_SOURCE } from "../../shared/oauth-flood.js";
import { freePort, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";

const TOKEN = "failed-auth-flood-test-token-0123456789";
const BUDGET = 30;
const INIT = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "x", version: "1" } } });

describe("a bad-token flood at /mcp from one source", () => {
  const tmp = tempDir();
  let server: HttpServe;

  beforeAll(async () => {
    const config = join(tmp.dir, "config.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    server = await startHttpServe(["--data-dir", tmp.dir, "--config", config, "--serve-port", String(await freePort())]);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  const post = (fetchFn: typeof fetch, token: string) =>
    fetchFn(`${server.url}/mcp`, { method: "POST", headers: { "content-type": "application/json", accept: "application/json, text/event-stream", authorization: `Bearer ${token}` }, body: INIT });

  it("is refused 429 + Retry-After past the budget, that source's right token too; another source is unaffected", async () => {
    const flooder = fetchFrom(FLOOD_SOURCE) as unknown as typeof fetch;
    const statuses: number[] = [];
    for (let i = 0; i < BUDGET + 10; i++) {
      const res = await post(flooder, `wrong-token-${i}`);
      statuses.push(res.status);
      if (res.status === 429) {
        expect(Number(res.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
        const body = (await res.json()) as { error: string; hint: string };
        expect(body.error).toMatch(/too many failed authentications/);
        expect(body.hint).toMatch(/Retry-After/);
      } else await res.arrayBuffer();
    }
    expect(statuses.slice(0, BUDGET).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(BUDGET).every((s) => s === 429)).toBe(true);

    // The flooding source's own right token waits too (a guesser learns nothing more until the bucket refills).
    const own = await post(flooder, TOKEN);
    expect(own.status).toBe(429);
    expect(own.headers.get("Retry-After")).not.toBeNull();

    // A caller on another address is answered as before, many times over: successes are never counted.
    const other = fetchFrom("127.0.0.1") as unknown as typeof fetch;
    for (let i = 0; i < BUDGET + 5; i++) {
      const res = await post(other, TOKEN);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    // And its own first bad token is a plain 401, not a 429.
    const wrong = await post(other, "wrong");
    expect(wrong.status).toBe(401);
  }, 60_000);
});
