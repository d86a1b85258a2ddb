// Refresh-token reuse detection fires only on real reuse (#42 item 4): a token this server never issued changes
// nothing, even with a victim's grant id in front; parallel refreshes of one legitimate token within the grace window
// all get the same new pair; a rotated-out token that comes back after the window still ends the grant.
import { describe, expect, it } from "vitest";
import { REFRESH_REUSE_GRACE_MS } from "../../../src/oauth/http/lifetimes.js";
import { fakeClock } from "./fake-clock.js";
import { json, setup } from "./oauth-setup.js";

type Tokens = { access_token: string; refresh_token: string; error?: string };

async function granted(o: Parameters<typeof setup>[0] = {}) {
  const s = await setup(o);
  const first = (await json(s.redeem(await s.approvedCode()))) as Tokens;
  return { ...s, first, grantId: first.refresh_token.split(".")[0] };
}

describe("refresh-token reuse", () => {
  it("a refresh token this server never issued is invalid_grant and leaves the grant standing", async () => {
    const s = await granted();
    for (const forged of [`${s.grantId}.junk`, `${s.grantId}.${"A".repeat(43)}`, `${s.grantId}`, `${s.grantId}.${s.first.refresh_token.split(".")[1]}x`]) {
      const r = await s.refresh(forged);
      expect([r.status, (await json(r)).error]).toEqual([400, "invalid_grant"]);
    }
    expect((await s.call(s.first.access_token)).status).toBe(200);
    const rotated = await s.refresh(s.first.refresh_token);
    expect(rotated.status).toBe(200);
  });

  it("20 parallel refreshes of one token get one new pair and keep the grant", async () => {
    const s = await granted();
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.refresh(s.first.refresh_token)));
    const bodies = (await Promise.all(answers.map((r) => r.json()))) as Tokens[];
    expect(answers.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(bodies.map((b) => b.refresh_token)).size).toBe(1);
    expect(new Set(bodies.map((b) => b.access_token)).size).toBe(1);
    expect(bodies[0].refresh_token).not.toBe(s.first.refresh_token);
    expect((await s.call(bodies[0].access_token)).status).toBe(200);
    expect((await s.refresh(bodies[0].refresh_token)).status).toBe(200);
  });

  it("a rotated-out token replayed after the grace window, or after its successor was used, revokes the grant", async () => {
    const clock = fakeClock(Date.now());
    const late = await granted({ clock });
    const second = (await json(late.refresh(late.first.refresh_token))) as Tokens;
    clock.advance(REFRESH_REUSE_GRACE_MS + 1);
    const replay = await late.refresh(late.first.refresh_token);
    expect([replay.status, (await json(replay)).error_description]).toEqual([400, "the refresh token was already used; the grant is revoked"]);
    expect((await json(late.refresh(second.refresh_token))).error).toBe("invalid_grant");
    expect(await json(late.call(second.access_token))).toMatchObject({ reason: "grant_revoked" });

    const chained = await granted();
    const next = (await json(chained.refresh(chained.first.refresh_token))) as Tokens;
    expect((await chained.refresh(next.refresh_token)).status).toBe(200);
    expect((await json(chained.refresh(chained.first.refresh_token))).error).toBe("invalid_grant");
    expect((await json(chained.call(next.access_token))).reason).toBe("grant_revoked");
  });
});
