// Failed operator tokens at /fleet/ are rate-limited per source like MCP callers (the same bucket, MOTEBIT_RATE_LIMIT
// per minute: 100 in the test config): past the burst a source gets 429 with Retry-After; another source, and the
// operator's right token, are not slowed. (That a limited source's right token waits too is pinned with a test
// clock in test/node/server/operator-attempts.test.ts: here the bucket refills in real time.)
import { SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import { BASE } from "../edge/helpers.js";
import { FLEET_TOKEN } from "./helpers.js";

const list = (token: string, source: string) =>
  SELF.fetch(`${BASE}/fleet/motebits`, { headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": source } });

it("wrong operator tokens from one source are answered 429 with Retry-After past the limit; other sources are not", async () => {
  // The bucket refills at 100 a minute while the loop runs, so a few more than 100 may pass before the first 429.
  let failed = 0;
  let limited: Response | null = null;
  while (limited === null && failed < 200) {
    const r = await list(`wrong-${failed}`, "198.51.100.7");
    if (r.status === 429) limited = r;
    else {
      expect(r.status).toBe(401);
      failed++;
      await r.body?.cancel();
    }
  }
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
