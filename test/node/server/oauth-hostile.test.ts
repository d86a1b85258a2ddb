// The authorization server against hostile clients and browsers, on the Node host's app (the edge runs the same
// src/oauth code in its Durable Object). Each refusal carries the error code its RFC names.
import { describe, expect, it } from "vitest";
import { signApproval } from "../../../src/oauth/approval.js";
import { mintAccessToken } from "../../../src/oauth/access-token.js";
import { signOwnerCommand } from "../../../src/oauth/owner-command.js";
import { createSigner } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { fakeClock } from "./fake-clock.js";
import { openConsent, redirectParams, REDIRECT_URI, submitConsent } from "../../shared/oauth-driver.js";
import { BASE, json, RESOURCE, setup } from "./oauth-setup.js";

describe("discovery", () => {
  it("both metadata documents are public; a 401 names the resource metadata and keeps its JSON body", async () => {
    const { fetchFn } = await setup();
    for (const path of ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"]) {
      const prm = await fetchFn(`${BASE}${path}`);
      expect(prm.status).toBe(200);
      expect(await json(prm)).toMatchObject({ resource: RESOURCE, authorization_servers: [BASE] });
    }
    const as = await (await fetchFn(`${BASE}/.well-known/oauth-authorization-server`)).json();
    expect(as).toMatchObject({
      issuer: BASE, authorization_endpoint: `${BASE}/authorize`, token_endpoint: `${BASE}/token`, registration_endpoint: `${BASE}/register`,
      code_challenge_methods_supported: ["S256"], response_types_supported: ["code"], client_id_metadata_document_supported: true,
    });
    const refused = await fetchFn(`${BASE}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(refused.status).toBe(401);
    expect(refused.headers.get("WWW-Authenticate")).toBe(`Bearer realm="motebit", resource_metadata="${BASE}/.well-known/oauth-protected-resource/mcp", DPoP algs="EdDSA Ed25519 ES256"`);
    expect(await json(refused)).toEqual({ error: "unauthorized" });
  });
});

describe("the token endpoint", () => {
  it("a wrong PKCE verifier is invalid_grant and burns nothing: the right one still redeems", async () => {
    const s = await setup();
    const code = await s.approvedCode();
    const wrong = await s.redeem(code, { code_verifier: "w".repeat(50) });
    expect(wrong.status).toBe(400);
    expect((await json(wrong)).error).toBe("invalid_grant");
    expect((await s.redeem(code)).status).toBe(200);
  });

  it("a code is single-use: a replay is invalid_grant", async () => {
    const s = await setup();
    const code = await s.approvedCode();
    expect((await s.redeem(code)).status).toBe(200);
    const replay = await s.redeem(code);
    expect(replay.status).toBe(400);
    expect((await json(replay)).error).toBe("invalid_grant");
  });

  it("20 parallel redemptions of one code give exactly one token", async () => {
    const s = await setup();
    const code = await s.approvedCode();
    const answers = await Promise.all(Array.from({ length: 20 }, () => s.redeem(code)));
    const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ access_token?: string; error?: string }>));
    expect(answers.filter((r) => r.status === 200)).toHaveLength(1);
    expect(bodies.filter((b) => b.error === "invalid_grant")).toHaveLength(19);
  });

  it("another resource is invalid_target; another client is invalid_grant; a secret is invalid_client; plain PKCE is refused", async () => {
    const s = await setup();
    const code = await s.approvedCode();
    const other = await s.redeem(code, { resource: `${BASE}/m/other/mcp` });
    expect(other.status).toBe(400);
    expect((await json(other)).error).toBe("invalid_target");
    expect((await json((await s.redeem(code, { client_id: "mcp_someone_else" })))).error).toBe("invalid_grant");
    expect((await json((await s.redeem(code, { redirect_uri: "http://127.0.0.1:1/other" })))).error).toBe("invalid_grant");
    const secret = await s.redeem(code, { client_secret: "x" });
    expect(secret.status).toBe(401);
    expect((await json(secret)).error).toBe("invalid_client");
    expect((await s.redeem(code)).status).toBe(200); // none of the above used the code up
    const plain = redirectParams(await s.fetchFn(s.authorizeUrl({ code_challenge_method: "plain", code_challenge: "x".repeat(43) }), { redirect: "manual" }));
    expect(plain.get("error")).toBe("invalid_request");
    expect(plain.get("state")).toBe("s1");
  });

  it("a token of another motebit (another key) is refused; so is one for another subject", async () => {
    const s = await setup();
    const stranger = await createSigner(keys.stranger.seed_hex);
    const call = (token: string) =>
      s.fetchFn(RESOURCE, { method: "POST", headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" }, body: '{"jsonrpc":"2.0","id":1,"method":"ping"}' });
    const claims = { sub: keys.server.sovereign_motebit_id, aud: RESOURCE, cid: s.clientId, gid: "g", trust: "verified" as const };
    const forged = await call((await mintAccessToken(claims, Date.now(), stranger)).token);
    expect(forged.status).toBe(401);
    expect((await json(forged)).reason).toBe("token_invalid");
    const elsewhere = await call((await mintAccessToken({ ...claims, sub: keys.stranger.sovereign_motebit_id }, Date.now(), s.signer)).token);
    expect((await json(elsewhere)).reason).toBe("subject_mismatch");
  });
});

describe("the authorization endpoint", () => {
  it("an unregistered redirect URI gets a page, never a redirect", async () => {
    const s = await setup();
    const res = await s.fetchFn(s.authorizeUrl({ redirect_uri: "https://evil.example/cb" }), { redirect: "manual" });
    expect(res.status).toBe(400);
    expect(res.headers.get("Location")).toBeNull();
    expect(await res.text()).toContain("Redirect URI not registered");
  });

  it("the resource of another motebit is invalid_target, back at the client", async () => {
    const s = await setup();
    const back = redirectParams(await s.fetchFn(s.authorizeUrl({ resource: `${BASE}/m/other/mcp` }), { redirect: "manual" }));
    expect(back.get("error")).toBe("invalid_target");
  });

  it("approvals signed by another key, for another request, or expired are refused; the request stays open", async () => {
    const s = await setup();
    const page = await openConsent(s.fetchFn, s.authorizeUrl());
    const other = await openConsent(s.fetchFn, s.authorizeUrl());
    const byStranger = await submitConsent(s.fetchFn, page, "approve", await s.approve(page.code, await createSigner(keys.stranger.seed_hex)));
    expect(byStranger.status).toBe(400);
    expect(await byStranger.text()).toContain("not an approval signed by this motebit");
    const forOther = await submitConsent(s.fetchFn, page, "approve", await s.approve(other.code));
    expect(await forOther.text()).toContain("for another request");
    const expired = await signApproval({ ...(await s.details(page.code)), expires_at: Date.now() - 1 }, "verified", s.signer);
    expect(await (await submitConsent(s.fetchFn, page, "approve", expired)).text()).toContain("has expired");
    expect(await (await submitConsent(s.fetchFn, page, "approve", "garbage")).text()).toContain("not an approval");
    expect(redirectParams(await submitConsent(s.fetchFn, page, "approve", await s.approve(page.code))).get("code")).toBeTruthy();
  });

  it("CSRF: no cookie, a wrong csrf, a foreign origin or a cross-site fetch are refused; the page's own form goes through", async () => {
    const s = await setup();
    const page = await openConsent(s.fetchFn, s.authorizeUrl());
    const approval = await s.approve(page.code);
    expect((await submitConsent(s.fetchFn, page, "approve", approval, { cookie: null })).status).toBe(403);
    expect((await submitConsent(s.fetchFn, page, "approve", approval, { csrf: "forged" })).status).toBe(403);
    expect((await submitConsent(s.fetchFn, page, "approve", approval, { origin: "https://evil.example" })).status).toBe(403);
    const crossSite = await s.fetchFn(page.action, {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded", Cookie: page.cookie, "Sec-Fetch-Site": "cross-site" },
      body: new URLSearchParams({ request: page.code, csrf: page.csrf, decision: "approve", approval }),
    });
    expect(crossSite.status).toBe(403);
    expect(redirectParams(await submitConsent(s.fetchFn, page, "approve", approval)).get("code")).toBeTruthy();
  });

  it("a denial and an expired request end at the client as access_denied", async () => {
    const clock = fakeClock(Date.now());
    const s = await setup({ clock });
    const denied = await openConsent(s.fetchFn, s.authorizeUrl());
    const d = redirectParams(await submitConsent(s.fetchFn, denied, "deny", ""));
    expect([d.get("error"), d.get("state"), d.get("iss")]).toEqual(["access_denied", "s1", BASE]);
    const late = await openConsent(s.fetchFn, s.authorizeUrl());
    const approval = await s.approve(late.code);
    clock.advance(11 * 60_000);
    const e = redirectParams(await submitConsent(s.fetchFn, late, "approve", approval));
    expect(e.get("error")).toBe("access_denied");
    expect(e.get("error_description")).toContain("expired");
  });

  it("a Client ID Metadata Document client: fetched, checked against its own URL, shown by name", async () => {
    const url = "https://app.example.com/oauth/client.json";
    const docs: Record<string, unknown> = {
      [url]: { client_id: url, client_name: "Example App", redirect_uris: [REDIRECT_URI] },
      "https://app.example.com/liar.json": { client_id: url, client_name: "Liar", redirect_uris: [REDIRECT_URI] },
    };
    const s = await setup({ fetchClientMetadata: async (u) => (u in docs ? { ok: true, document: docs[u] } : { ok: false, why: "HTTP 404" }) });
    const page = await openConsent(s.fetchFn, s.authorizeUrl({ client_id: url }));
    expect(page.status).toBe(200);
    expect(page.html).toContain("Example App asks to connect");
    const liar = await s.fetchFn(s.authorizeUrl({ client_id: "https://app.example.com/liar.json" }));
    expect(liar.status).toBe(400);
    expect(await liar.text()).toContain("not the URL it was fetched from");
    expect((await s.fetchFn(s.authorizeUrl({ client_id: "https://127.0.0.1/x.json" }))).status).toBe(400);
  });
});

describe("the owner's commands", () => {
  it("list and revoke need the motebit's signature and are good once", async () => {
    const s = await setup();
    const code = await s.approvedCode();
    expect((await s.redeem(code)).status).toBe(200);
    const send = async (command: string) => s.fetchFn(`${BASE}/oauth/owner`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ command }) });
    const list = await signOwnerCommand(keys.server.sovereign_motebit_id, { op: "list" }, Date.now(), s.signer);
    const listed = await send(list);
    expect((await json(listed)).clients).toEqual([expect.objectContaining({ client_id: s.clientId, name: "Hostile test", trust: "verified", live_grants: 1 })]);
    expect((await send(list)).status).toBe(401);
    const byStranger = await signOwnerCommand(keys.server.sovereign_motebit_id, { op: "revoke", client_id: s.clientId }, Date.now(), await createSigner(keys.stranger.seed_hex));
    expect((await send(byStranger)).status).toBe(401);
    const revoke = await signOwnerCommand(keys.server.sovereign_motebit_id, { op: "revoke", client_id: s.clientId }, Date.now(), s.signer);
    expect(await json((await send(revoke)))).toEqual({ revoked: s.clientId });
  });
});

describe("malformed input loses nothing", () => {
  it("a bad escape, an unknown request code, a non-form token body and a non-JSON registration get clear 4xx answers", async () => {
    const s = await setup();
    expect((await s.fetchFn(`${BASE}/oauth/requests/%E0%A4%A`)).status).toBe(404);
    expect((await s.fetchFn(`${BASE}/oauth/requests/NOPE-NOPE`)).status).toBe(404);
    const token = await s.fetchFn(`${BASE}/token`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect([token.status, (await json(token)).error]).toEqual([400, "invalid_request"]);
    const reg = await s.fetchFn(`${BASE}/register`, { method: "POST", body: "not json" });
    expect([reg.status, (await json(reg)).error]).toEqual([400, "invalid_client_metadata"]);
    const evilRedirect = await s.fetchFn(`${BASE}/register`, { method: "POST", body: JSON.stringify({ redirect_uris: ["javascript:alert(1)"] }) });
    expect((await json(evilRedirect)).error).toBe("invalid_redirect_uri");
    expect((await s.fetchFn(`${BASE}/token`)).status).toBe(405);
  });
});
