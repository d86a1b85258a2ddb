// Per-caller token bucket in the object: 100 per minute (burst 100) in the test config.
// The object's clock is held still for the burst, so no token can refill while the requests are in flight
// and the count of 200s is exact however slow the machine is.
import { expect, it, vi } from "vitest";
import { systemClock } from "../../../src/ports.js";
import { initialize, keys, objectRows, post, rpc, signedAuth } from "./helpers.js";

const BURST = 100; // MOTEBIT_RATE_LIMIT in test/workerd/wrangler.test.toml

it("a caller past its burst gets 429 with Retry-After; other callers are unaffected", async () => {
  const frozenAt = Date.now();
  const clock = vi.spyOn(systemClock, "now").mockReturnValue(frozenAt);
  try {
    const session = await initialize(await signedAuth("rate_limited"));
    // initialize took one token; with the clock still, exactly BURST - 1 of 105 more fit and the rest are refused.
    const responses = await Promise.all(
      Array.from({ length: 105 }, async (_, i) => post(rpc("ping", {}, i), { auth: await signedAuth("rate_limited"), session })),
    );
    const ok = responses.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(99);
    expect(ok).toBeLessThan(105);
    expect(ok).toBe(BURST - 1);
    expect(responses.filter((r) => r.status === 429)).toHaveLength(105 - (BURST - 1));
    expect(responses.every((r) => r.status === 200 || r.status === 429)).toBe(true);
    // The object really ran on the held clock (otherwise the exact count above would be luck): its bucket was
    // last written at frozenAt and is empty.
    const [bucket] = await objectRows<{ tokens: number; updated_at: number }>(
      "SELECT tokens, updated_at FROM rate_buckets WHERE caller_id = ?",
      keys.rate_limited.sovereign_motebit_id,
    );
    expect(bucket).toEqual({ tokens: 0, updated_at: frozenAt });
    const limited = responses.find((r) => r.status === 429)!;
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
    // An empty bucket refills one token in 600 ms: the next one is a second away, rounded up.
    expect(limited.headers.get("Retry-After")).toBe("1");
    expect(await limited.json()).toMatchObject({ jsonrpc: "2.0", error: { code: -32000, message: expect.stringMatching(/^Too Many Requests/) } });
    const other = await initialize(await signedAuth("known_caller"));
    expect((await post(rpc("ping"), { auth: await signedAuth("known_caller"), session: other })).status).toBe(200);
  } finally {
    clock.mockRestore();
  }
});
