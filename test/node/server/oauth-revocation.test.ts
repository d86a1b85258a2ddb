// RFC 7009 revocation on the Node host, driven by oauth4webapi: a host signs out by revoking its refresh token (or
// an access token), which ends the whole grant at once, as the owner's revoke does; an unknown token is 200.
import { describe, expect, it } from "vitest";
import { discover, revokeToken } from "../../shared/oauth-agent.js";
import { BASE, form, json, setup } from "./oauth-setup.js";

async function signedIn() {
  const s = await setup();
  const tokens = await json(s.redeem(await s.approvedCode()));
  return { ...s, as: await discover(s.fetchFn, BASE), tokens: tokens as { access_token: string; refresh_token: string } };
}

describe("token revocation (Node host)", () => {
  it("revoking the refresh token ends the grant: its access token stops working at once and the refresh token is refused", async () => {
    const s = await signedIn();
    expect((await s.call(s.tokens.access_token)).status).toBe(200);
    await revokeToken(s.fetchFn, s.as, s.clientId, s.tokens.refresh_token);
    expect((await s.call(s.tokens.access_token)).status).toBe(401);
    expect(await json(s.refresh(s.tokens.refresh_token))).toMatchObject({ error: "invalid_grant" });
    expect(s.backend.oauth.ownerListing().revoked.map((c) => c.client_id)).toEqual([s.clientId]);
  });

  it("revoking the access token ends its grant too", async () => {
    const s = await signedIn();
    await revokeToken(s.fetchFn, s.as, s.clientId, s.tokens.access_token);
    expect((await s.call(s.tokens.access_token)).status).toBe(401);
    expect(await json(s.refresh(s.tokens.refresh_token))).toMatchObject({ error: "invalid_grant" });
  });

  it("an unknown, malformed or already revoked token is 200 and changes nothing", async () => {
    const s = await signedIn();
    for (const t of ["nonsense", `${s.tokens.refresh_token.split(".")[0]}.guessed`, "motebit-oauth:forged.sig"]) await revokeToken(s.fetchFn, s.as, s.clientId, t);
    expect((await s.call(s.tokens.access_token)).status).toBe(200);
    await revokeToken(s.fetchFn, s.as, s.clientId, s.tokens.refresh_token);
    await revokeToken(s.fetchFn, s.as, s.clientId, s.tokens.refresh_token);
  });

  it("another client cannot revoke the token, and the request needs a token and a client", async () => {
    const s = await signedIn();
    const other = await s.fetchFn(`${BASE}/revoke`, form({ token: s.tokens.refresh_token, client_id: "someone-else" }));
    expect([other.status, await other.json()]).toEqual([400, { error: "unauthorized_client", error_description: "the token was issued to another client" }]);
    expect((await s.call(s.tokens.access_token)).status).toBe(200);
    expect(await json(s.fetchFn(`${BASE}/revoke`, form({ client_id: s.clientId })))).toMatchObject({ error: "invalid_request" });
    expect(await json(s.fetchFn(`${BASE}/revoke`, form({ token: s.tokens.refresh_token })))).toMatchObject({ error: "invalid_client" });
  });
});
