// docs/protocol.md §5: every refusal is a 401 with its exact body; a signed-token refusal names its reason.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import worker from "../../../worker/index.js";
import { handmadeAuth, INITIALIZE, keys, mcpRequest, post, SERVER_ID, signedAuth } from "./helpers.js";
import type { TokenReason } from "../../../src/protocol/index.js";
import { tokenHint } from "../../../src/callers/token-hints.js";

async function expectRefusal(auth: string | null, body: unknown) {
  const res = await post(INITIALIZE, { auth });
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual(body);
}

// Every signed-token refusal carries the hint for its reason (the wording is pinned in test/node/server/token-hints.test.ts).
const reason = (r: TokenReason, referenceClient = false) => ({ error: "invalid motebit token", reason: r, hint: tokenHint(r, referenceClient) });
const now = () => Date.now();

describe("static bearer token", () => {
  it("wrong token → 401 unauthorized", async () => {
    await expectRefusal("Bearer not-the-token", { error: "unauthorized" });
  });
  it("no Authorization header → 401 unauthorized", async () => {
    await expectRefusal(null, { error: "unauthorized" });
  });
  it("a non-Bearer scheme → 401 unauthorized", async () => {
    await expectRefusal(`Basic ${btoa("a:b")}`, { error: "unauthorized" });
  });
  it("no authToken (nor relay forward token) configured and no motebit token → 401 telling the operator what to do", async () => {
    const noToken = { ...env, MOTEBIT_AUTH_TOKEN: undefined, MOTEBIT_AUTH_TOKENS: undefined, MOTEBIT_RELAY_FORWARD_TOKEN: undefined };
    for (const auth of [null, `Bearer ${keys.auth_token}`]) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(mcpRequest(INITIALIZE, { auth }), noToken, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: "unauthorized — set authToken or use a motebit signed token" });
    }
  });
});

describe("signed motebit token refusals", () => {
  it("token_unparseable", async () => {
    await expectRefusal("Bearer motebit:not-a-token", reason("token_unparseable"));
  });
  it("suite_unsupported", async () => {
    const t = now();
    const auth = await handmadeAuth("known_caller", {
      mid: keys.known_caller.sovereign_motebit_id, did: "d", iat: t, exp: t + 60_000, jti: crypto.randomUUID(), aud: "mcp:call", sub: SERVER_ID,
      suite: "motebit-jwt-ed25519-v0",
    });
    await expectRefusal(auth, reason("suite_unsupported"));
  });
  it("missing_claims", async () => {
    const t = now();
    const auth = await handmadeAuth("known_caller", {
      mid: keys.known_caller.sovereign_motebit_id, did: "d", iat: t, exp: t + 60_000, aud: "mcp:call", sub: SERVER_ID, suite: "motebit-jwt-ed25519-v1",
    });
    await expectRefusal(auth, reason("missing_claims"));
  });
  it("no_key_for_caller: an unknown motebit (not signed by the pinned relay either)", async () => {
    await expectRefusal(await signedAuth("stranger"), reason("no_key_for_caller"));
  });
  it("signature_invalid: a known caller's id signed with another key", async () => {
    await expectRefusal(await signedAuth("stranger", { mid: keys.known_caller.sovereign_motebit_id }), reason("signature_invalid"));
  });
  it("expired", async () => {
    await expectRefusal(await signedAuth("known_caller", { iat: now() - 180_000, ttlMs: 60_000 }), reason("expired"));
  });
  it("not_yet_valid: iat beyond the 60 s skew", async () => {
    await expectRefusal(await signedAuth("known_caller", { iat: now() + 120_000, ttlMs: 60_000 }), reason("not_yet_valid"));
  });
  it("lifetime_too_long: exp - iat over 5 minutes", async () => {
    await expectRefusal(await signedAuth("known_caller", { ttlMs: 5 * 60_000 + 1 }), reason("lifetime_too_long"));
  });
  it("lifetime_invalid: exp not after iat, even inside the clock skew", async () => {
    const t = now();
    const auth = await handmadeAuth("known_caller", {
      mid: keys.known_caller.sovereign_motebit_id, did: "d", iat: t + 50_000, exp: t - 1_000, jti: crypto.randomUUID(),
      aud: "mcp:call", sub: SERVER_ID, suite: "motebit-jwt-ed25519-v1",
    });
    await expectRefusal(auth, reason("lifetime_invalid"));
    const zero = await handmadeAuth("known_caller", {
      mid: keys.known_caller.sovereign_motebit_id, did: "d", iat: t, exp: t, jti: crypto.randomUUID(),
      aud: "mcp:call", sub: SERVER_ID, suite: "motebit-jwt-ed25519-v1",
    });
    await expectRefusal(zero, reason("lifetime_invalid"));
  });
  it("a lifetime of exactly 5 minutes is still accepted", async () => {
    const res = await post(INITIALIZE, { auth: await signedAuth("known_caller", { ttlMs: 5 * 60_000 }) });
    expect(res.status).toBe(200);
  });
  it("audience_mismatch", async () => {
    await expectRefusal(await signedAuth("known_caller", { aud: "task:submit" }), reason("audience_mismatch"));
    // The reference client's per-connection token (aud task:submit, no sub) from a known caller: told the fix.
    await expectRefusal(await signedAuth("known_caller", { aud: "task:submit", sub: undefined }), reason("audience_mismatch", true));
    // From a caller we hold no key for, nothing more than the general hint.
    await expectRefusal(await signedAuth("stranger", { aud: "task:submit", sub: undefined }), reason("audience_mismatch"));
  });
  it("audience_mismatch: a task:dispatch token is never a bearer", async () => {
    await expectRefusal(await signedAuth("relay", { aud: "task:dispatch" }), reason("audience_mismatch"));
  });
  it("subject_mismatch: a token bound to another server", async () => {
    await expectRefusal(await signedAuth("known_caller", { sub: keys.stranger.sovereign_motebit_id }), reason("subject_mismatch"));
  });
  it("subject_mismatch: a token bound to no server", async () => {
    await expectRefusal(await signedAuth("known_caller", { sub: undefined }), reason("subject_mismatch"));
  });
  it("jti_replayed: the second use of a token", async () => {
    const auth = await signedAuth("known_caller");
    expect((await post(INITIALIZE, { auth })).status).toBe(200);
    await expectRefusal(auth, reason("jti_replayed"));
  });
  it("caller_blocked: a known caller whose trust is blocked", async () => {
    await expectRefusal(await signedAuth("blocked"), reason("caller_blocked"));
  });
});
