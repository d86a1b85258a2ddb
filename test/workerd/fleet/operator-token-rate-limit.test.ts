// Failed operator tokens at /fleet/ are rate-limited per source like MCP callers (the same bucket, MOTEBIT_RATE_LIMIT
// per minute: 100 in the test config): past the burst a source gets 429 with Retry-After; another source, and the
// operator's right token, are not slowed. (That a limited source's right token waits too is pinned with a test
// clock in test/node/server/operator-attempts.test.ts: here the bucket refills in real time.) The source is
// CF-Connecting-IP only over https, as at a deployed Worker, where Cloudflare sets it; over plain http (wrangler dev,
// which passes a caller's own CF-Connecting-IP through) every caller is one source.
import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import { BASE } from "../edge/helpers.js";
import { FLEET_TOKEN } from "./helpers.js";

const DEPLOYED = BASE.replace(/^http:/, "https:");

const list = (token: string, source: string, base = DEPLOYED) =>
  SELF.fetch(`${base}/fleet/motebits`, { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": source } });

/** Wrong tokens until the first 429 (at most 200): how many were answered 401 first, and the 429. */
async function failUntilLimited(source: (i: number) => string, base = DEPLOYED): Promise<{ failed: number; limited: Response | null }> {
  // The bucket refills at 100 a minute while the loop runs, so a few more than 100 may pass before the first 429.
  let failed = 0;
  let limited: Response | null = null;
  while (limited === null && failed < 200) {
    const r = await list(`wrong-${failed}`, source(failed), base);
    if (r.status === 429) limited = r;
    else {
      expect(r.status).toBe(401);
      failed++;
      await r.body?.cancel();
    }
  }
  return { failed, limited };
}

it("wrong operator tokens from one source are answered 429 with Retry-After past the limit; other sources are not", async () => {
  const { failed, limited } = await failUntilLimited(() => "198.51.100.7");
  expect(failed).toBeGreaterThanOrEqual(100);
  expect(limited).not.toBeNull();
  const wait = Number(limited!.headers.get("Retry-After"));
  expect(Number.isInteger(wait) && wait >= 1 && wait <= 60).toBe(true);
  expect(await limited!.json()).toEqual({ error: `too many failed operator tokens; retry after ${wait} s` });

  // Another source: its right token is served and its wrong one is a plain 401.
  const other = await list(FLEET_TOKEN, "203.0.113.9");
  expect(other.status).toBe(200);
  await other.body?.cancel();
  const otherWrong = await list("wrong", "203.0.113.9");
  expect(otherWrong.status).toBe(401);
  await otherWrong.body?.cancel();
});

it("the operator's right token takes nothing from its source's bucket", async () => {
  for (let i = 0; i < 150; i++) {
    const r = await list(FLEET_TOKEN, "192.0.2.1");
    expect(r.status).toBe(200);
    await r.body?.cancel();
  }
  const wrong = await list("wrong", "192.0.2.1");
  expect(wrong.status).toBe(401);
  await wrong.body?.cancel();
});

it("over plain http (wrangler dev) a caller-written CF-Connecting-IP names no fresh source: all callers share one bucket", async () => {
  const { failed, limited } = await failUntilLimited((i) => `10.9.${Math.floor(i / 250)}.${i % 250}`, BASE);
  expect(failed).toBeLessThan(200);
  expect(limited?.status).toBe(429);
  await limited?.body?.cancel();
});
