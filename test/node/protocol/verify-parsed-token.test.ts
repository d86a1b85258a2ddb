// A server that read a token's claims first verifies that same parse (verifyParsedToken): same verdicts as
// verifyBearerToken, and the signature is checked over the bytes that were parsed.
import { expect, it } from "vitest";
import { createSigner, mintBearerToken, parseBearerToken, utf8, verifyBearerToken, verifyParsedToken } from "../../../src/protocol/index.js";
import { TEST_SEED, OTHER_SEED } from "../helpers/motebit.js";

const claims = { mid: "caller", did: "did:key:z6Mk", aud: "mcp:call", sub: "server" };

it("gives the verdicts verifyBearerToken gives: valid, wrong key, expired, not yet valid", async () => {
  const signer = await createSigner(TEST_SEED);
  const other = await createSigner(OTHER_SEED);
  const now = 1_800_000_000_000;
  const cases = [
    { token: await mintBearerToken({ ...claims, iat: now }, signer), key: signer.publicKeyHex },
    { token: await mintBearerToken({ ...claims, iat: now }, signer), key: other.publicKeyHex },
    { token: await mintBearerToken({ ...claims, iat: now - 10 * 60_000 }, signer), key: signer.publicKeyHex },
    { token: await mintBearerToken({ ...claims, iat: now + 10 * 60_000 }, signer), key: signer.publicKeyHex },
    { token: await mintBearerToken({ ...claims, iat: now }, signer), key: "not-hex" },
  ];
  const verdicts = [];
  for (const c of cases) {
    const parsed = parseBearerToken(c.token);
    if (!parsed.ok) throw new Error(parsed.reason);
    const v = await verifyParsedToken(parsed, c.key, { now });
    expect(v).toEqual(await verifyBearerToken(c.token, c.key, { now }));
    verdicts.push(v.ok ? "ok" : v.reason);
  }
  expect(verdicts).toEqual(["ok", "signature_invalid", "expired", "not_yet_valid", "no_key_for_caller"]);
});

it("checks the signature over the parsed payload bytes: other bytes under the same claims are refused", async () => {
  const signer = await createSigner(TEST_SEED);
  const parsed = parseBearerToken(await mintBearerToken(claims, signer));
  if (!parsed.ok) throw new Error(parsed.reason);
  const forged = { ...parsed, payloadBytes: utf8(JSON.stringify({ ...parsed.claims, aud: "task:dispatch" })) };
  expect(await verifyParsedToken(forged, signer.publicKeyHex)).toEqual({ ok: false, reason: "signature_invalid" });
});
