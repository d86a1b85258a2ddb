// A host sends the same OAuth access token on every request for its lifetime: the Worker checks its signature once
// and remembers what verified, while expiry and subject are still judged on every request, and nothing that failed
// is remembered.
import { describe, expect, it } from "vitest";
import { ACCESS_TOKEN_TTL_MS, mintAccessToken, verifyAccessToken } from "../../../src/oauth/access-token.js";
import { createSigner, sovereignMotebitId, verifySignature, type VerifySignature } from "../../../src/protocol/index.js";

async function motebit(seedByte: string) {
  const signer = await createSigner(seedByte.repeat(32));
  return { signer, identity: { motebitId: await sovereignMotebitId(signer.publicKeyHex), publicKeyHex: signer.publicKeyHex } };
}

/** The real Ed25519 check, counted. */
function counted(): { verify: VerifySignature; calls: () => number } {
  let n = 0;
  return { verify: (key, data, sig) => (n++, verifySignature(key, data, sig)), calls: () => n };
}

async function token(m: Awaited<ReturnType<typeof motebit>>, now: number): Promise<string> {
  return (await mintAccessToken({ sub: m.identity.motebitId, aud: "https://motebit.test/mcp", cid: "c1", gid: `g-${now}`, trust: "verified" }, now, m.signer)).token;
}

describe("an access token's signature is checked once", () => {
  it("the same token again is accepted without a second signature check", async () => {
    const m = await motebit("a1");
    const now = Date.now();
    const t = await token(m, now);
    const c = counted();
    expect((await verifyAccessToken(t, m.identity, now, c.verify)).ok).toBe(true);
    const again = await verifyAccessToken(t, m.identity, now + 1, c.verify);
    expect(again).toMatchObject({ ok: true, principal: { callerId: "oauth:c1", trust: "verified" } });
    expect(c.calls()).toBe(1);
  });

  it("a token seen before still expires and still must name the motebit asked", async () => {
    const m = await motebit("a2");
    const now = Date.now();
    const t = await token(m, now);
    expect((await verifyAccessToken(t, m.identity, now)).ok).toBe(true);
    expect(await verifyAccessToken(t, m.identity, now + ACCESS_TOKEN_TTL_MS)).toEqual({ ok: false, reason: "expired" });
    expect(await verifyAccessToken(t, { ...m.identity, motebitId: "someone-else" }, now)).toEqual({ ok: false, reason: "subject_mismatch" });
  });

  it("a refused signature is not remembered, and another key's check is its own", async () => {
    const m = await motebit("a3");
    const other = await motebit("a4");
    const now = Date.now();
    const t = await token(m, now);
    expect(await verifyAccessToken(t, m.identity, now, async () => false)).toEqual({ ok: false, reason: "token_invalid" });
    const c = counted();
    expect((await verifyAccessToken(t, m.identity, now, c.verify)).ok).toBe(true);
    expect(c.calls()).toBe(1);
    expect(await verifyAccessToken(t, { ...m.identity, publicKeyHex: other.identity.publicKeyHex }, now)).toEqual({ ok: false, reason: "token_invalid" });
  });
});
