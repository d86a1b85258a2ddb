// DPoP (RFC 9449) at the edge, driven by an independent client (oauth4webapi) against the real Worker: the Worker
// checks the proof before the Durable Object, the object keeps the proof's single use and the nonce; a stolen
// DPoP-bound token without its key and a replayed proof are 401.
import { SELF } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { createSigner } from "../../../src/protocol/index.js";
import { dpopInitialize, dpopRefresh, dpopSignIn, INITIALIZE_BODY } from "../../shared/dpop-client.js";
import { makeProof } from "../../shared/dpop-proof.js";
import { BASE, keys } from "./helpers.js";

const RESOURCE = `${BASE}/mcp`;
const owner = async (d: RequestDetails) => signApproval(d, "verified", await createSigner(keys.server.seed_hex));
const signIn = (alg: "EdDSA" | "ES256" = "EdDSA") => dpopSignIn(BASE, (url, init) => SELF.fetch(url, init), owner, alg);
const mcpPost = (auth: string, dpop?: string) =>
  SELF.fetch(RESOURCE, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", ...(dpop !== undefined && { DPoP: dpop }) },
    body: INITIALIZE_BODY,
  });

describe("DPoP at the edge", () => {
  it("the metadata lists the proof algorithms", async () => {
    const meta = (await (await SELF.fetch(`${BASE}/.well-known/oauth-authorization-server`)).json()) as { dpop_signing_alg_values_supported: string[] };
    expect(meta.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(["EdDSA", "ES256"]));
  });

  for (const alg of ["EdDSA", "ES256"] as const) {
    it(`oauth4webapi's authorization code + DPoP (${alg}), then refresh with DPoP: each token opens a session with a proof`, async () => {
      const s = await signIn(alg);
      expect(s.tokens.token_type.toLowerCase()).toBe("dpop");
      expect((await dpopInitialize(s)).status).toBe(200);
      const next = await dpopRefresh(s);
      expect(next.token_type.toLowerCase()).toBe("dpop");
      expect((await dpopInitialize(s, next.access_token)).status).toBe(200);
    });
  }

  it("a stolen DPoP-bound token is 401 as Bearer and with another key's proof; its refresh token is refused without a proof", async () => {
    const s = await signIn();
    const asBearer = await mcpPost(`Bearer ${s.tokens.access_token}`);
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("WWW-Authenticate")).toContain('DPoP error="invalid_token"');
    expect(await asBearer.json()).toMatchObject({ reason: "dpop_bound" });
    const thief = oauth.DPoP(s.client, await oauth.generateKeyPair("EdDSA"));
    const other = await dpopInitialize(s, s.tokens.access_token, thief).catch((e: oauth.WWWAuthenticateChallengeError) => e.response);
    expect([other.status, ((await other.json()) as { reason: string }).reason]).toEqual([401, "key_mismatch"]);
    // Its refresh token is bound too: without a proof it refreshes nothing.
    const refresh = await SELF.fetch(`${BASE}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: s.tokens.refresh_token!, client_id: s.client.client_id, resource: RESOURCE }),
    });
    expect([refresh.status, ((await refresh.json()) as { error: string }).error]).toEqual([400, "invalid_grant"]);
  });

  it("the nonce round trip at /mcp, and a replayed proof refused by the object: 401 invalid_dpop_proof", async () => {
    const s = await signIn();
    const key = { alg: "EdDSA" as const, privateKey: s.keyPair.privateKey, jwk: await crypto.subtle.exportKey("jwk", s.keyPair.publicKey) };
    const auth = `DPoP ${s.tokens.access_token}`;
    const first = await mcpPost(auth, await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token }));
    expect(first.status).toBe(401);
    expect(first.headers.get("WWW-Authenticate")).toContain('DPoP error="use_dpop_nonce"');
    const proof = await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token, nonce: first.headers.get("DPoP-Nonce")! });
    expect((await mcpPost(auth, proof)).status).toBe(200);
    const again = await mcpPost(auth, proof);
    expect(again.status).toBe(401);
    expect(again.headers.get("WWW-Authenticate")).toContain('DPoP error="invalid_dpop_proof"');
    expect(await again.json()).toMatchObject({ error: "invalid dpop proof", reason: "replayed" });
  });
});
