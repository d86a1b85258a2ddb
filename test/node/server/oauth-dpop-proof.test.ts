// Each check of a DPoP proof (RFC 9449 §4.3), failing alone: a proof right in every way but one is refused for
// that one reason; the stateless nonce is good in its window and the next, and nowhere else.
import { describe, expect, it } from "vitest";
import { createSigner } from "../../../src/protocol/index.js";
import { DpopNonces, NONCE_WINDOW_MS } from "../../../src/oauth/dpop/nonce.js";
import { verifyDpopProof, type DpopProofReason } from "../../../src/oauth/dpop/proof.js";
import { jwkThumbprint } from "../../../src/oauth/dpop/thumbprint.js";
import { makeProof, proofKey } from "../../shared/dpop-proof.js";
import keys from "../../fixtures/edge/keys.json";

const URI = "https://motebit.test/mcp";
const TOKEN = "motebit-oauth:example";
const expectation = { method: "POST", uri: URI, now: Date.now(), accessToken: TOKEN };

describe("a DPoP proof's checks", () => {
  it("a right proof (Ed25519 or P-256) gives its key's RFC 7638 thumbprint, jti, iat and nonce", async () => {
    for (const alg of ["EdDSA", "ES256"] as const) {
      const key = await proofKey(alg);
      const v = await verifyDpopProof(await makeProof(key, "POST", URI, { token: TOKEN, nonce: "n1", claims: { jti: "j1" } }), expectation);
      expect(v).toEqual({ ok: true, proof: { jkt: await jwkThumbprint(key.jwk as any), jti: "j1", iat: expect.any(Number), nonce: "n1" } });
    }
  });

  it("the thumbprint of RFC 8037 §A.3's Ed25519 key is the one that RFC gives", async () => {
    expect(await jwkThumbprint({ kty: "OKP", crv: "Ed25519", x: "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo" })).toBe("kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k");
  });

  const cases: [DpopProofReason, (k: Awaited<ReturnType<typeof proofKey>>) => Promise<string | null>][] = [
    ["proof_missing", async () => null],
    ["proof_malformed", async () => "not.a-jwt"],
    ["proof_malformed", async (k) => (await makeProof(k, "POST", URI, { token: TOKEN })) + "," + (await makeProof(k, "POST", URI, { token: TOKEN }))],
    ["proof_malformed", (k) => makeProof(k, "POST", URI, { token: TOKEN, claims: { jti: undefined } })],
    ["typ", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { typ: "JWT" } })],
    ["alg", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { alg: "HS256" } })],
    ["alg", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { alg: "none" } })],
    ["jwk", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { jwk: { ...k.jwk, d: "private" } } })],
    ["jwk", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { jwk: undefined } })],
    ["jwk", (k) => makeProof(k, "POST", URI, { token: TOKEN, header: { alg: "ES256" } })],
    ["signature", async (k) => (await makeProof(k, "POST", URI, { token: TOKEN })).replace(/\.[^.]+$/, (s) => "." + (s[1] === "A" ? "B" : "A") + s.slice(2))],
    ["signature", async (k) => makeProof({ ...k, jwk: (await proofKey()).jwk }, "POST", URI, { token: TOKEN })],
    ["htm", (k) => makeProof(k, "GET", URI, { token: TOKEN })],
    ["htu", (k) => makeProof(k, "POST", "https://elsewhere.test/mcp", { token: TOKEN })],
    ["htu", (k) => makeProof(k, "POST", "https://motebit.test/token", { token: TOKEN })],
    ["htu", (k) => makeProof(k, "POST", "not a url", { token: TOKEN })],
    ["iat", (k) => makeProof(k, "POST", URI, { token: TOKEN, claims: { iat: Math.floor(Date.now() / 1000) - 120 } })],
    ["iat", (k) => makeProof(k, "POST", URI, { token: TOKEN, claims: { iat: Math.floor(Date.now() / 1000) + 120 } })],
    ["iat", (k) => makeProof(k, "POST", URI, { token: TOKEN, claims: { iat: "now" } })],
    ["ath", (k) => makeProof(k, "POST", URI, { token: "motebit-oauth:another" })],
    ["ath", (k) => makeProof(k, "POST", URI)],
  ];
  for (const [i, [reason, make]] of cases.entries()) {
    it(`refused as ${reason} (case ${i + 1})`, async () => {
      const v = await verifyDpopProof(await make(await proofKey()), expectation);
      expect(v).toEqual({ ok: false, reason });
    });
  }

  it("htu is compared without query and fragment (RFC 9449 §4.3)", async () => {
    const v = await verifyDpopProof(await makeProof(await proofKey(), "POST", `${URI}?a=1#f`, { token: TOKEN }), expectation);
    expect(v.ok).toBe(true);
  });
});

describe("the stateless DPoP nonce", () => {
  it("is the same through a window, accepted in it and the next, refused after, and not another motebit's", async () => {
    const nonces = new DpopNonces(await createSigner(keys.server.seed_hex));
    const t = 1_000 * NONCE_WINDOW_MS;
    const n = await nonces.current(t);
    expect(await nonces.current(t + NONCE_WINDOW_MS - 1)).toBe(n);
    expect(await nonces.accepts(n, t)).toBe(true);
    expect(await nonces.accepts(n, t + NONCE_WINDOW_MS)).toBe(true);
    expect(await nonces.accepts(n, t + 2 * NONCE_WINDOW_MS)).toBe(false);
    expect(await nonces.accepts(null, t)).toBe(false);
    expect(await nonces.accepts(`${n.split(".")[0]}.forged`, t)).toBe(false);
    const other = new DpopNonces(await createSigner(keys.known_caller.seed_hex));
    expect(await other.accepts(n, t)).toBe(false);
    // Another instance of the same motebit (an evicted object, a restart) accepts it: nothing is stored.
    expect(await new DpopNonces(await createSigner(keys.server.seed_hex)).accepts(n, t)).toBe(true);
  });
});
