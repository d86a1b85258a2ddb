// What a private_key_jwt assertion and a published key set must be, pinned against JWTs signed by jose (not our
// code): the key its kid names, iss = sub = client_id, the issuer or token endpoint as aud, a short exp, a jti; keys
// Ed25519 or P-256, public parts only.
import { exportJWK, generateKeyPair, SignJWT, type JWTPayload } from "jose";
import { describe, expect, it } from "vitest";
import { checkClientAssertion, MAX_ASSERTION_LIFETIME_MS } from "../../../src/oauth/client-auth/client-assertion.js";
import { checkClientKeys, type ClientKey } from "../../../src/oauth/client-auth/client-keys.js";

const CLIENT = "https://agent.example/client.json";
const ISSUER = "https://motebit.test";
const AUDIENCES = [ISSUER, `${ISSUER}/token`];

async function keyOf(alg: "EdDSA" | "ES256", kid: string) {
  const { privateKey, publicKey } = await generateKeyPair(alg, { crv: alg === "EdDSA" ? "Ed25519" : undefined, extractable: true });
  const checked = checkClientKeys({ keys: [{ ...(await exportJWK(publicKey)), kid }] });
  if (!checked.ok) throw new Error(checked.why);
  return { privateKey, key: checked.keys[0], alg, kid };
}

type Signing = Awaited<ReturnType<typeof keyOf>>;

async function assertion(k: Signing, claims: JWTPayload = {}, header: Record<string, unknown> = {}) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ iss: CLIENT, sub: CLIENT, aud: ISSUER, iat: now, exp: now + 60, jti: crypto.randomUUID(), ...claims })
    .setProtectedHeader({ alg: k.alg, kid: k.kid, ...header })
    .sign(k.privateKey);
}

const check = (jwt: string, keys: ClientKey[]) => checkClientAssertion(jwt, CLIENT, keys, AUDIENCES, Date.now());

describe("private_key_jwt assertions", () => {
  it("Ed25519 and P-256 assertions for the issuer or the token endpoint pass, with their jti", async () => {
    for (const alg of ["EdDSA", "ES256"] as const) {
      const k = await keyOf(alg, "k1");
      for (const aud of [ISSUER, `${ISSUER}/token`, [ISSUER, "https://else.example"]]) {
        expect(await check(await assertion(k, { aud, jti: "j-1" }), [k.key])).toMatchObject({ ok: true, jti: "j-1" });
      }
    }
  });

  it("the key is the one its kid names: another key of the set, or a kid the set lacks, does not verify", async () => {
    const a = await keyOf("EdDSA", "a");
    const b = await keyOf("EdDSA", "b");
    expect((await check(await assertion(a), [b.key, a.key])).ok).toBe(true);
    expect(await check(await assertion(a, {}, { kid: "b" }), [a.key, b.key])).toEqual({ ok: false, why: "client_assertion is not signed by a key in the client's jwks" });
    expect((await check(await assertion(a), [b.key])).ok).toBe(false);
  });

  it.each([
    ["another issuer", { iss: "https://evil.example/c.json" }, "iss and sub"],
    ["another subject", { sub: "someone" }, "iss and sub"],
    ["another audience", { aud: "https://other.example" }, "aud must be"],
    ["expired", { exp: Math.floor(Date.now() / 1000) - 1 }, "expired"],
    ["too long lived", { exp: Math.floor((Date.now() + MAX_ASSERTION_LIFETIME_MS) / 1000) + 60 }, "within 5 minutes"],
    ["issued in the future", { iat: Math.floor(Date.now() / 1000) + 600 }, "iat is in the future"],
    ["no jti", { jti: undefined }, "needs a jti"],
  ])("refused: %s", async (_, claims, why) => {
    const k = await keyOf("ES256", "k");
    const got = await check(await assertion(k, claims), [k.key]);
    expect(got.ok).toBe(false);
    expect(!got.ok && got.why).toContain(why);
  });

  it("refused: an unsigned or HMAC token, and junk", async () => {
    const k = await keyOf("EdDSA", "k");
    const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString("base64url");
    const payload = b64({ iss: CLIENT, sub: CLIENT, aud: ISSUER, exp: Math.floor(Date.now() / 1000) + 60, jti: "x" });
    expect((await check(`${b64({ alg: "none" })}.${payload}.`, [k.key])).ok).toBe(false);
    expect((await check(`${b64({ alg: "HS256" })}.${payload}.c2ln`, [k.key])).ok).toBe(false);
    for (const junk of ["", "a.b", "a.b.c", "x".repeat(10_000)]) expect((await check(junk, [k.key])).ok).toBe(false);
  });
});

describe("a client's published keys", () => {
  it.each([
    ["a private part", { keys: [{ kty: "OKP", crv: "Ed25519", x: "A".repeat(43), d: "B".repeat(43) }] }],
    ["an RSA key", { keys: [{ kty: "RSA", n: "AQAB", e: "AQAB" }] }],
    ["a P-384 key", { keys: [{ kty: "EC", crv: "P-384", x: "A".repeat(64), y: "A".repeat(64) }] }],
    ["a key for encryption", { keys: [{ kty: "OKP", crv: "Ed25519", x: "A".repeat(43), use: "enc" }] }],
    ["a short coordinate", { keys: [{ kty: "OKP", crv: "Ed25519", x: "AAAA" }] }],
    ["no keys", { keys: [] }],
    ["six keys", { keys: Array.from({ length: 6 }, () => ({ kty: "OKP", crv: "Ed25519", x: "A".repeat(43) })) }],
    ["not a key set", [{ kty: "OKP", crv: "Ed25519", x: "A".repeat(43) }]],
  ])("refused: %s", (_, jwks) => {
    expect(checkClientKeys(jwks).ok).toBe(false);
  });

  it("only the public fields it uses are kept", () => {
    expect(checkClientKeys({ keys: [{ kty: "OKP", crv: "Ed25519", x: "A".repeat(43), kid: "k", alg: "EdDSA", use: "sig", extra: 1 }] })).toEqual({
      ok: true, keys: [{ kty: "OKP", crv: "Ed25519", x: "A".repeat(43), kid: "k" }],
    });
  });
});
