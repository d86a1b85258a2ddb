// Every signed-token refusal says what to do, in one sentence, from one table both hosts use.
import { describe, expect, it } from "vitest";
import { authenticate } from "../../../src/server/auth.js";
import { createSigner, mintBearerToken, sovereignMotebitId } from "../../../src/protocol/index.js";
import { tokenHint } from "../../../src/callers/token-hints.js";
import { OTHER_SEED, TEST_SEED } from "../helpers/motebit.js";

const REASONS = [
  "token_unparseable", "suite_unsupported", "no_key_for_caller", "signature_invalid", "expired", "not_yet_valid",
  "lifetime_too_long", "lifetime_invalid", "audience_mismatch", "subject_mismatch", "jti_replayed", "caller_blocked", "missing_claims",
] as const;

describe("token refusal hints", () => {
  it("every reason has a one-sentence hint", () => {
    for (const r of REASONS) expect(tokenHint(r), r).toMatch(/^[A-Z][^\n]{20,400}[.)]$/);
  });

  it("say what this server takes where the token's shape is wrong", () => {
    for (const r of ["audience_mismatch", "expired", "token_unparseable"] as const) {
      expect(tokenHint(r)).toContain('aud "mcp:call", sub = its motebit_id (GET /health) and exp at most 5 minutes after iat');
    }
    expect(tokenHint("jti_replayed")).toMatch(/^Each token is good for one request: mint a new one \(new jti\) for every HTTP request/);
  });

  it("a known caller's per-connection token from the reference client (aud task:submit, no sub) is told the credentialSource fix", async () => {
    const self = await createSigner(TEST_SEED);
    const caller = await createSigner(OTHER_SEED);
    const callerId = await sovereignMotebitId(caller.publicKeyHex);
    const identity = { motebitId: await sovereignMotebitId(self.publicKeyHex), publicKeyHex: self.publicKeyHex };
    const settings = { staticTokens: new Map(), knownCallers: new Map([[callerId, { publicKeyHex: caller.publicKeyHex, trust: "verified" as const }]]), relayTrust: null, relayId: null };
    const token = await mintBearerToken({ mid: callerId, did: "d", aud: "task:submit", ttlMs: 5 * 60_000 }, caller);
    const r = await authenticate(`Bearer motebit:${token}`, settings, identity, Date.now());
    expect(r).toMatchObject({ ok: false, status: 401, body: { error: "invalid motebit token", reason: "audience_mismatch" } });
    const hint = (r as { body: { hint: string } }).body.hint;
    expect(hint).toContain("credentialSource: motebitCredentialSource({ privateKey }) from motebit-edge/client instead of callerPrivateKey");
    expect(hint).toContain("docs/clients.md#");
  });
});
