import { describe, expect, it } from "vitest";
import {
  base64urlDecode, base64urlEncode, createSigner, fromUtf8, mintBearerToken, parseBearerToken, utf8, verifyBearerToken,
} from "../../../src/protocol/index.js";
import { demo, fill, vectors } from "./fixtures.js";

const t = vectors.tokens;

/** Sign an arbitrary payload text the way a (possibly odd) client would. */
async function tokenFor(payload: string, seed = demo.seed_hex): Promise<string> {
  const p = utf8(payload);
  return base64urlEncode(p) + "." + base64urlEncode(await (await createSigner(seed)).sign(p));
}

describe("bearer tokens: vectors", () => {
  it("valid_until_2100 verifies to the expected claims", async () => {
    expect(await verifyBearerToken(t.valid_until_2100.token, demo.public_key_hex)).toEqual({ ok: true, claims: t.valid_until_2100.verify_now });
    expect(fromUtf8(base64urlDecode(t.valid_until_2100.token.split(".")[0]))).toBe(t.valid_until_2100.payload_json);
  });

  it("expired → expired; wrong key → signature_invalid; missing suite → suite_unsupported", async () => {
    expect(await verifyBearerToken(t.expired.token, demo.public_key_hex)).toEqual({ ok: false, reason: "expired" });
    expect(await verifyBearerToken(t.valid_until_2100.token, fill.public_key_hex)).toEqual({ ok: false, reason: "signature_invalid" });
    expect(await verifyBearerToken(t.missing_suite_rejected.token, demo.public_key_hex)).toEqual({ ok: false, reason: "suite_unsupported" });
  });

  it("the expired vector was valid during its lifetime and carries the vector signature", async () => {
    const now = t.expired.input_payload.iat + 1000;
    expect((await verifyBearerToken(t.expired.token, demo.public_key_hex, { now })).ok).toBe(true);
    expect(Buffer.from(base64urlDecode(t.expired.token.split(".")[1])).toString("hex")).toBe(t.expired.sig_hex);
  });

  it("mintBearerToken reproduces the vector tokens", async () => {
    const signer = await createSigner(demo.seed_hex);
    for (const v of [t.valid_until_2100, t.expired]) {
      const c = v.input_payload;
      expect(await mintBearerToken({ ...c, ttlMs: c.exp - c.iat }, signer)).toBe(v.token);
    }
  });
});

describe("bearer tokens: minting", () => {
  it("defaults to a 60 s lifetime and a random jti, and carries sub when given", async () => {
    const signer = await createSigner(demo.seed_hex);
    const before = Date.now();
    const a = await mintBearerToken({ mid: demo.sovereign_motebit_id, did: "dev-1", aud: "mcp:call", sub: fill.sovereign_motebit_id }, signer);
    const b = await mintBearerToken({ mid: demo.sovereign_motebit_id, did: "dev-1", aud: "mcp:call" }, signer);
    const va = await verifyBearerToken(a, demo.public_key_hex);
    const vb = await verifyBearerToken(b, demo.public_key_hex);
    if (!va.ok || !vb.ok) throw new Error("expected valid tokens");
    expect(va.claims.exp - va.claims.iat).toBe(60_000);
    expect(va.claims.iat).toBeGreaterThanOrEqual(before);
    expect(va.claims.sub).toBe(fill.sovereign_motebit_id);
    expect(vb.claims.sub).toBeUndefined();
    expect(va.claims.jti).not.toBe(vb.claims.jti);
    expect(Object.keys(JSON.parse(fromUtf8(base64urlDecode(a.split(".")[0]))))).toEqual(["mid", "did", "iat", "exp", "jti", "aud", "sub", "suite"]);
  });
});

describe("bearer tokens: the primitive's checks", () => {
  const base = { mid: "m", did: "d", iat: 1_000_000, exp: 1_060_000, jti: "j", aud: "mcp:call", suite: "motebit-jwt-ed25519-v1" };

  it("applies exp/iat with 60 s skew by default", async () => {
    const tok = await tokenFor(JSON.stringify(base));
    expect((await verifyBearerToken(tok, demo.public_key_hex, { now: 1_119_999 })).ok).toBe(true);
    expect(await verifyBearerToken(tok, demo.public_key_hex, { now: 1_120_000 })).toEqual({ ok: false, reason: "expired" });
    expect((await verifyBearerToken(tok, demo.public_key_hex, { now: 940_000 })).ok).toBe(true);
    expect(await verifyBearerToken(tok, demo.public_key_hex, { now: 939_999 })).toEqual({ ok: false, reason: "not_yet_valid" });
    expect(await verifyBearerToken(tok, demo.public_key_hex, { now: 1_060_000, skewMs: 0 })).toEqual({ ok: false, reason: "expired" });
  });

  it("verifies over the payload bytes as sent, never re-serialised", async () => {
    const spaced = '{ "mid": "m", "did": "d", "iat": 1000000, "exp": 1060000, "jti": "j", "aud": "mcp:call", "suite": "motebit-jwt-ed25519-v1" }';
    const tok = await tokenFor(spaced);
    expect((await verifyBearerToken(tok, demo.public_key_hex, { now: 1_000_000 })).ok).toBe(true);
    // the same claims, re-serialised compactly, do not carry the signature
    const [, sig] = tok.split(".");
    const recompact = base64urlEncode(utf8(JSON.stringify(JSON.parse(spaced)))) + "." + sig;
    expect(await verifyBearerToken(recompact, demo.public_key_hex, { now: 1_000_000 })).toEqual({ ok: false, reason: "signature_invalid" });
  });

  it("refuses a wrong suite, missing or mistyped claims", async () => {
    const now = { now: 1_000_000 };
    expect(await verifyBearerToken(await tokenFor(JSON.stringify({ ...base, suite: "motebit-jwt-ed25519-v2" })), demo.public_key_hex, now))
      .toEqual({ ok: false, reason: "suite_unsupported" });
    for (const claim of ["mid", "did", "iat", "exp", "jti", "aud"]) {
      const { [claim]: _gone, ...rest } = base as Record<string, unknown>;
      expect(await verifyBearerToken(await tokenFor(JSON.stringify(rest)), demo.public_key_hex, now), claim).toEqual({ ok: false, reason: "missing_claims" });
      expect(await verifyBearerToken(await tokenFor(JSON.stringify({ ...base, [claim]: claim === "iat" || claim === "exp" ? "1" : 1 })), demo.public_key_hex, now), claim)
        .toEqual({ ok: false, reason: "missing_claims" });
    }
    expect(await verifyBearerToken(await tokenFor(JSON.stringify({ ...base, sub: 5 })), demo.public_key_hex, now)).toEqual({ ok: false, reason: "missing_claims" });
  });

  it("refuses a missing or malformed key as no_key_for_caller", async () => {
    expect(await verifyBearerToken(t.valid_until_2100.token, "")).toEqual({ ok: false, reason: "no_key_for_caller" });
    expect(await verifyBearerToken(t.valid_until_2100.token, undefined as unknown as string)).toEqual({ ok: false, reason: "no_key_for_caller" });
  });

  it("parseBearerToken splits on the first dot and returns the exact payload bytes", () => {
    const parsed = parseBearerToken(t.valid_until_2100.token);
    if (!parsed.ok) throw new Error("expected parse");
    expect(fromUtf8(parsed.payloadBytes)).toBe(t.valid_until_2100.payload_json);
    expect(parsed.signature.length).toBe(64);
    expect(parseBearerToken(t.valid_until_2100.token + ".extra")).toEqual({ ok: false, reason: "token_unparseable" });
  });
});
