// At the edge the OAuth URLs are built on MOTEBIT_PUBLIC_URL (http://edge.test in the test config), whatever Host or
// URL a request names, and an access token is good only at the resource it names (#42 items 1 and 6).
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { mintAccessToken } from "../../../src/oauth/access-token.js";
import { createSigner } from "../../../src/protocol/index.js";
import { approvedCode } from "./oauth-helpers.js";
import { BASE, INITIALIZE, initialize, keys, post } from "./helpers.js";

const EVIL = "http://evil.example";
const owner = async (d: RequestDetails) => signApproval(d, "verified", await createSigner(keys.server.seed_hex));

describe("the edge's OAuth URLs and audience", () => {
  it("metadata and a 401 name the configured public URL, not the Host the request came with", async () => {
    const prm = await SELF.fetch(`${EVIL}/.well-known/oauth-protected-resource/mcp`);
    expect(await prm.json()).toMatchObject({ resource: `${BASE}/mcp`, authorization_servers: [BASE] });
    const as = (await (await SELF.fetch(`${EVIL}/.well-known/oauth-authorization-server`)).json()) as Record<string, string>;
    expect([as.issuer, as.token_endpoint]).toEqual([BASE, `${BASE}/token`]);
    const refused = await SELF.fetch(`${EVIL}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(INITIALIZE) });
    expect(refused.headers.get("WWW-Authenticate")).toBe(`Bearer realm="motebit", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", DPoP algs="EdDSA Ed25519 ES256"`);
  });

  it("a token of this motebit's key for another resource is audience_mismatch; one for its own still gets in", async () => {
    const signer = await createSigner(keys.server.seed_hex);
    const claims = { sub: keys.server.sovereign_motebit_id, cid: "mcp_someone", gid: crypto.randomUUID(), trust: "verified" as const };
    const other = await mintAccessToken({ ...claims, aud: `${BASE}/m/other/mcp` }, Date.now(), signer);
    const refused = await post(INITIALIZE, { auth: `Bearer ${other.token}` });
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({ error: "invalid oauth token", reason: "audience_mismatch" });
    expect(refused.headers.get("WWW-Authenticate")).toContain(`resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp"`);
    const { redeem } = await approvedCode(BASE, owner);
    const { access_token } = (await (await redeem()).json()) as { access_token: string };
    await initialize(`Bearer ${access_token}`);
  });

  it("OpenID Connect discovery is 404, not 401", async () => {
    for (const path of ["/.well-known/openid-configuration", "/.well-known/openid-configuration/m/anyone"]) {
      const r = await SELF.fetch(`${BASE}${path}`);
      expect([r.status, r.headers.get("WWW-Authenticate")], path).toEqual([404, null]);
      await r.body?.cancel();
    }
  });
});
