// DPoP (RFC 9449) on the Node host's app, driven by an independent client (oauth4webapi): the code redeemed with a
// proof gives a DPoP-bound token that works only with a fresh proof by its key; a stolen token, a replayed proof and
// a missing nonce are refused with the DPoP challenge; a Bearer client is served as before.
import { describe, expect, it } from "vitest";
import * as oauth from "oauth4webapi";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { jwkThumbprint } from "../../../src/oauth/dpop/thumbprint.js";
import { createApp } from "../../../src/server/app.js";
import { dpopInitialize, dpopRefresh, dpopSignIn, INITIALIZE_BODY } from "../../shared/dpop-client.js";
import { makeProof, proofKey } from "../../shared/dpop-proof.js";
import { BASE, form, json, RESOURCE, setup } from "./oauth-setup.js";

async function signedIn(alg: "EdDSA" | "ES256" = "EdDSA") {
  const h = await setup();
  const s = await dpopSignIn(BASE, h.fetchFn, (d: RequestDetails) => signApproval(d, "verified", h.signer), alg);
  return { ...h, s };
}

/** The claims inside a motebit-oauth: token (an envelope whose payload is base64url JSON). */
function claimsOf(token: string): Record<string, any> {
  const payload = token.slice("motebit-oauth:".length).split(".").find((p) => p.startsWith("eyJ")) ?? "";
  return JSON.parse(Buffer.from(payload, "base64url").toString());
}

const mcpPost = (auth: string, dpop?: string) => ({
  method: "POST",
  headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", ...(dpop !== undefined && { DPoP: dpop }) },
  body: INITIALIZE_BODY,
});

describe("DPoP on the Node host", () => {
  it("the authorization-server metadata lists the proof algorithms, and a 401 offers DPoP beside Bearer", async () => {
    const h = await setup();
    const meta = await json(h.fetchFn(`${BASE}/.well-known/oauth-authorization-server`));
    expect(meta.dpop_signing_alg_values_supported).toEqual(expect.arrayContaining(["EdDSA", "ES256"]));
    const refused = await h.fetchFn(RESOURCE, mcpPost("Bearer nothing"));
    expect(refused.headers.get("WWW-Authenticate")).toBe(`Bearer realm="motebit", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", DPoP algs="EdDSA Ed25519 ES256"`);
  });

  for (const alg of ["EdDSA", "ES256"] as const) {
    it(`oauth4webapi's authorization code + DPoP (${alg}) gets a DPoP token bound to its key, which opens a session with a proof`, async () => {
      const { s } = await signedIn(alg);
      expect(s.tokens.token_type.toLowerCase()).toBe("dpop");
      const jwk = await crypto.subtle.exportKey("jwk", s.keyPair.publicKey);
      expect(claimsOf(s.tokens.access_token).cnf).toEqual({ jkt: await jwkThumbprint(jwk as any) });
      const res = await dpopInitialize(s);
      expect(res.status).toBe(200);
      expect(res.headers.get("Mcp-Session-Id")).toBeTruthy();
    });
  }

  it("a token request with a proof but no nonce is told the nonce to use (400 use_dpop_nonce, DPoP-Nonce)", async () => {
    const h = await setup();
    const key = await proofKey();
    const res = await h.fetchFn(`${BASE}/token`, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", DPoP: await makeProof(key, "POST", `${BASE}/token`) },
      body: new URLSearchParams({ grant_type: "authorization_code", code: "x", code_verifier: "v".repeat(43), client_id: h.clientId, redirect_uri: "http://127.0.0.1:53682/callback" }),
    });
    expect(res.status).toBe(400);
    expect((await json(res)).error).toBe("use_dpop_nonce");
    expect(res.headers.get("DPoP-Nonce")).toMatch(/^\d+\.[A-Za-z0-9_-]{43}$/);
  });

  it("at /mcp a fresh proof without the nonce gets 401 use_dpop_nonce with one; with it, 200 (the nonce round trip)", async () => {
    const { s, fetchFn } = await signedIn();
    const key = { alg: "EdDSA" as const, privateKey: s.keyPair.privateKey, jwk: await crypto.subtle.exportKey("jwk", s.keyPair.publicKey) };
    const auth = `DPoP ${s.tokens.access_token}`;
    const first = await fetchFn(RESOURCE, mcpPost(auth, await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token })));
    expect(first.status).toBe(401);
    expect(first.headers.get("WWW-Authenticate")).toContain('DPoP error="use_dpop_nonce"');
    const nonce = first.headers.get("DPoP-Nonce")!;
    const second = await fetchFn(RESOURCE, mcpPost(auth, await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token, nonce })));
    expect(second.status).toBe(200);
  });

  it("a stolen DPoP-bound token is 401 as Bearer, without a proof, and with a proof by another key", async () => {
    const { s, fetchFn } = await signedIn();
    const token = s.tokens.access_token;
    const asBearer = await fetchFn(RESOURCE, mcpPost(`Bearer ${token}`));
    expect(asBearer.status).toBe(401);
    expect(asBearer.headers.get("WWW-Authenticate")).toContain('DPoP error="invalid_token"');
    expect(await asBearer.json()).toMatchObject({ error: "invalid oauth token", reason: "dpop_bound" });
    const noProof = await fetchFn(RESOURCE, mcpPost(`DPoP ${token}`));
    expect([noProof.status, (await json(noProof)).reason]).toEqual([401, "proof_missing"]);
    const thief = oauth.DPoP(s.client, await oauth.generateKeyPair("EdDSA"));
    const withOtherKey = await dpopInitialize(s, token, thief).catch((e: oauth.WWWAuthenticateChallengeError) => e.response);
    expect(withOtherKey.status).toBe(401);
    expect(await withOtherKey.json()).toMatchObject({ reason: "key_mismatch" });
  });

  it("a replayed proof is refused: 401 invalid_dpop_proof", async () => {
    const { s, fetchFn } = await signedIn();
    const key = { alg: "EdDSA" as const, privateKey: s.keyPair.privateKey, jwk: await crypto.subtle.exportKey("jwk", s.keyPair.publicKey) };
    const auth = `DPoP ${s.tokens.access_token}`;
    const nonce = (await fetchFn(RESOURCE, mcpPost(auth, await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token })))).headers.get("DPoP-Nonce")!;
    const proof = await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token, nonce });
    expect((await fetchFn(RESOURCE, mcpPost(auth, proof))).status).toBe(200);
    const again = await fetchFn(RESOURCE, mcpPost(auth, proof));
    expect(again.status).toBe(401);
    expect(again.headers.get("WWW-Authenticate")).toContain('DPoP error="invalid_dpop_proof"');
    expect(await again.json()).toMatchObject({ error: "invalid dpop proof", reason: "replayed" });
  });

  it("refresh with a proof by the same key gives a new DPoP-bound token; a Bearer token still works as Bearer", async () => {
    const { s, redeem, approvedCode, call } = await signedIn();
    const next = await dpopRefresh(s);
    expect(next.token_type.toLowerCase()).toBe("dpop");
    expect(claimsOf(next.access_token).cnf).toEqual(claimsOf(s.tokens.access_token).cnf);
    expect((await dpopInitialize(s, next.access_token)).status).toBe(200);
    const bearer = await json(redeem(await approvedCode()));
    expect([bearer.token_type, claimsOf(bearer.access_token).cnf]).toEqual(["Bearer", undefined]);
    expect((await call(bearer.access_token)).status).toBe(200);
  });

  it("a DPoP-bound refresh token is refused without a proof and with another key's, and the grant still stands", async () => {
    const { s, fetchFn } = await signedIn();
    const bare = await json(fetchFn(`${BASE}/token`, form({ grant_type: "refresh_token", refresh_token: s.tokens.refresh_token!, client_id: s.client.client_id, resource: RESOURCE })));
    expect(bare).toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("DPoP-bound") });
    const thief = oauth.DPoP(s.client, await oauth.generateKeyPair("EdDSA"));
    await expect(dpopRefresh(s, thief)).rejects.toMatchObject({ error: "invalid_grant", error_description: expect.stringContaining("another DPoP key") });
    // The owner of the key refreshes as before: neither refusal touched the grant.
    expect((await dpopRefresh(s)).token_type.toLowerCase()).toBe("dpop");
  });

  it("a nonce refusal is a step of the exchange, not a failed authentication: the failed-auth limiter is not told", async () => {
    const { s, backend } = await signedIn();
    const failures: string[] = [];
    const app = createApp({ backend, failedAuthLimiter: { admit: () => ({ ok: true }), failed: (source) => void failures.push(source) } });
    const key = { alg: "EdDSA" as const, privateKey: s.keyPair.privateKey, jwk: await crypto.subtle.exportKey("jwk", s.keyPair.publicKey) };
    const auth = `DPoP ${s.tokens.access_token}`;
    const nonceAsked = await app.fetch(new Request(RESOURCE, mcpPost(auth, await makeProof(key, "POST", RESOURCE, { token: s.tokens.access_token }))));
    expect([nonceAsked.status, failures]).toEqual([401, []]);
    const badProof = await app.fetch(new Request(RESOURCE, mcpPost(auth, await makeProof(key, "GET", RESOURCE, { token: s.tokens.access_token }))));
    expect([badProof.status, failures]).toEqual([401, ["unknown"]]);
  });
});
