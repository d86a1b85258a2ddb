// Access tokens are good only at the resource they were issued for, and that resource (like the issuer and every URL
// in metadata and WWW-Authenticate) is built on a base the host vouches for, never on whatever Host a caller sends
// (#42 items 1 and 6). Here on the in-process app with the edge's rule (https, or a loopback host).
import { describe, expect, it } from "vitest";
import { mintAccessToken } from "../../../src/oauth/access-token.js";
import { openConsent } from "../../shared/oauth-driver.js";
import { BASE, json, RESOURCE, setup } from "./oauth-setup.js";

const LOOPBACK = "http://127.0.0.1";

describe("the audience of an access token", () => {
  it("a token issued for one resource is refused at another name of the same motebit as audience_mismatch", async () => {
    const s = await setup();
    const { access_token } = (await json(s.redeem(await s.approvedCode()))) as { access_token: string };
    expect((await s.call(access_token)).status).toBe(200);
    const elsewhere = await s.call(access_token, `${LOOPBACK}/mcp`);
    expect(elsewhere.status).toBe(401);
    expect(await json(elsewhere)).toEqual({ error: "invalid oauth token", reason: "audience_mismatch" });
    expect(elsewhere.headers.get("WWW-Authenticate")).toBe(`Bearer realm="motebit", resource_metadata="${LOOPBACK}/.well-known/oauth-protected-resource/mcp", DPoP algs="EdDSA Ed25519 ES256"`);
  });

  it("a token this motebit signed for another resource, with a live grant, is refused before the grant is asked", async () => {
    const s = await setup();
    const { refresh_token } = (await json(s.redeem(await s.approvedCode()))) as { refresh_token: string };
    const claims = { sub: s.motebit.motebitId, cid: s.clientId, gid: refresh_token.split(".")[0], trust: "verified" as const };
    const other = await mintAccessToken({ ...claims, aud: `${BASE}/m/other/mcp` }, Date.now(), s.signer);
    expect(await json(s.call(other.token))).toMatchObject({ reason: "audience_mismatch" });
    const same = await mintAccessToken({ ...claims, aud: RESOURCE }, Date.now(), s.signer);
    expect((await s.call(same.token)).status).toBe(200);
  });

  it("/authorize without resource binds the request to this motebit's /mcp", async () => {
    const s = await setup();
    const u = s.authorizeUrl();
    u.searchParams.delete("resource");
    const page = await openConsent(s.fetchFn, u);
    expect((await s.details(page.code)).resource).toBe(RESOURCE);
  });

  it("OpenID Connect discovery is 404, not a 401 asking for a token", async () => {
    const s = await setup();
    for (const path of ["/.well-known/openid-configuration", "/.well-known/openid-configuration/mcp"]) {
      const r = await s.fetchFn(`${BASE}${path}`);
      expect([r.status, r.headers.get("WWW-Authenticate")]).toEqual([404, null]);
    }
  });
});

describe("the issuer is not the caller's Host", () => {
  it("under a name the host does not vouch for, metadata and OAuth endpoints answer 421 and a 401 points nowhere", async () => {
    const s = await setup();
    const evil = "http://evil.example";
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-authorization-server", "/authorize", "/token", "/register"]) {
      const r = await s.fetchFn(`${evil}${path}`, path === "/token" || path === "/register" ? { method: "POST" } : undefined);
      expect(r.status, path).toBe(421);
      expect(await r.text()).not.toContain("evil.example");
    }
    const refused = await s.fetchFn(`${evil}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect([refused.status, refused.headers.get("WWW-Authenticate")]).toEqual([401, 'Bearer realm="motebit"']);
    const { access_token } = (await json(s.redeem(await s.approvedCode()))) as { access_token: string };
    expect(await json(s.call(access_token, `${evil}/mcp`))).toMatchObject({ reason: "audience_mismatch" });
  });
});
