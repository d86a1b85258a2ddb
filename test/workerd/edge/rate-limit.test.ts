// Per-caller token bucket in the object: 100 per minute (burst 100) in the test config.
import { expect, it } from "vitest";
import { initialize, post, rpc, signedAuth } from "./helpers.js";

it("a caller past its burst gets 429 with Retry-After; other callers are unaffected", async () => {
  const session = await initialize(await signedAuth("rate_limited"));
  // initialize took one token; of 105 more, 99 fit the burst (a few more may refill while we send).
  const responses = await Promise.all(
    Array.from({ length: 105 }, async (_, i) => post(rpc("ping", {}, i), { auth: await signedAuth("rate_limited"), session })),
  );
  const ok = responses.filter((r) => r.status === 200).length;
  expect(ok).toBeGreaterThanOrEqual(99);
  expect(ok).toBeLessThan(105);
  expect(responses.every((r) => r.status === 200 || r.status === 429)).toBe(true);
  const limited = responses.find((r) => r.status === 429)!;
  expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
  expect(await limited.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/^Too Many Requests/) } });
  const other = await initialize(await signedAuth("known_caller"));
  expect((await post(rpc("ping"), { auth: await signedAuth("known_caller"), session: other })).status).toBe(200);
});
