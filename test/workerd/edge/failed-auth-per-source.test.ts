// Failed authentication at /mcp is limited per source in the Worker (issue #42; worker/auth-failures.ts): the
// AUTH_FAILURES rate limiter (wrangler.test.toml: 300 a minute; deployed, 30) hears each 401, and once it says a source
// is over, that source's requests, its right token too, are 429 + Retry-After {error, hint} before any credential
// check; another source's caller is answered as before; without the binding nothing is limited. Before the limit,
// the 301st bad token from one source was one more 401, and so was the 1,000th.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index.js";
import { INITIALIZE, mcpRequest, post, STATIC } from "./helpers.js";

/** wrangler.test.toml's limit. */
const BUDGET = 300;
const from = (ip: string, auth: string) => post(INITIALIZE, { auth, headers: { "CF-Connecting-IP": ip } });

describe("a bad-token flood at /mcp from one source", () => {
  it("is refused 429 + Retry-After past the budget, that source's right token too; another source is unaffected", async () => {
    const flooder = "198.51.100.7";
    const statuses: number[] = [];
    for (let i = 0; i < BUDGET + 10; i++) {
      const res = await from(flooder, `Bearer wrong-${i}`);
      statuses.push(res.status);
      if (res.status === 429) {
        const retryAfter = Number(res.headers.get("Retry-After"));
        expect(retryAfter).toBeGreaterThanOrEqual(1);
        expect(retryAfter).toBeLessThanOrEqual(60);
        const body = (await res.json()) as { error: string; hint: string };
        expect(body.error).toMatch(/too many failed authentications/);
        expect(body.hint).toMatch(/Retry-After/);
      } else await res.arrayBuffer();
    }
    expect(statuses.slice(0, BUDGET).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(BUDGET + 1).every((s) => s === 429)).toBe(true);

    const own = await from(flooder, STATIC);
    expect(own.status).toBe(429);
    await own.arrayBuffer();

    // Another source's valid caller is answered as before, and its first bad token is a plain 401. (Ten calls: the
    // static caller's own per-caller limit, MOTEBIT_RATE_LIMIT, is a separate matter.)
    for (let i = 0; i < 10; i++) {
      const res = await from("203.0.113.9", STATIC);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    const wrong = await from("203.0.113.9", "Bearer wrong");
    expect(wrong.status).toBe(401);
    await wrong.arrayBuffer();
  });

  it("is not limited by a deployment without the binding", async () => {
    const unbound = { ...env, AUTH_FAILURES: undefined };
    for (let i = 0; i < BUDGET + 10; i++) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(mcpRequest(INITIALIZE, { auth: `Bearer wrong-${i}`, headers: { "CF-Connecting-IP": "198.51.100.8" } }), unbound, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(401);
      await res.arrayBuffer();
    }
  });
});
