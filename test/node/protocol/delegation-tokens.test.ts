import { describe, expect, it } from "vitest";
import {
  createSigner, type DelegationToken, scopeAllows, signDelegationToken, verifyDelegationToken,
} from "../../../src/protocol/index.js";
import { demo, fill, vectors } from "./fixtures.js";

const d = vectors.delegation;
const self = demo.sovereign_motebit_id;

async function token(over: Partial<DelegationToken> = {}): Promise<string> {
  const { suite: _s, signature: _g, ...body } = d.token;
  return JSON.stringify(await signDelegationToken({ ...body, ...over }, await createSigner(fill.seed_hex)));
}

describe("delegation tokens: the vector", () => {
  it("verifies now, for this motebit, within scope", async () => {
    const v = await verifyDelegationToken(d.json_arg, { delegateId: self, requiredCapabilities: ["read_url", "web_search"] });
    expect(v).toEqual({ ok: true, token: d.token });
    expect(v.ok).toBe(d.verify_now);
  });

  it("signDelegationToken reproduces it byte for byte", async () => {
    expect(await token()).toBe(d.json_arg);
  });
});

describe("delegation tokens: refusals in order, with exact texts", () => {
  it("not JSON", async () => {
    for (const bad of ["", "{", "not json", "[]", "null", "42", '"str"']) {
      expect(await verifyDelegationToken(bad, { delegateId: self })).toEqual({ ok: false, error: "Denied: delegation_token is not valid JSON" });
    }
  });

  it("unsupported suite", async () => {
    const json = JSON.stringify({ ...d.token, suite: "motebit-jcs-ed25519-hex-v1" });
    expect(await verifyDelegationToken(json, { delegateId: self })).toEqual({
      ok: false, error: 'Denied: delegation token uses unsupported suite "motebit-jcs-ed25519-hex-v1"',
    });
    const { suite: _s, ...noSuite } = d.token;
    expect(await verifyDelegationToken(JSON.stringify(noSuite), { delegateId: self })).toEqual({
      ok: false, error: 'Denied: delegation token uses unsupported suite ""',
    });
  });

  it("invalid signature (any field changed, or a different signer)", async () => {
    const bad = "Denied: delegation token has invalid signature";
    for (const change of [{ scope: "*" }, { expires_at: d.token.expires_at + 1 }, { delegate_id: "x" }, { not_before: 0 }, { grant_id: "g" }]) {
      expect(await verifyDelegationToken(JSON.stringify({ ...d.token, ...change }), { delegateId: self })).toEqual({ ok: false, error: bad });
    }
    const forged = { ...d.token, delegator_public_key: demo.public_key_hex };
    expect(await verifyDelegationToken(JSON.stringify(forged), { delegateId: self })).toEqual({ ok: false, error: bad });
  });

  it("expired, and not yet valid — never reported as a bad signature", async () => {
    expect(await verifyDelegationToken(d.json_arg, { delegateId: self, now: d.token.expires_at + 1 })).toEqual({
      ok: false, error: "Denied: delegation token has expired",
    });
    expect((await verifyDelegationToken(d.json_arg, { delegateId: self, now: d.token.expires_at })).ok).toBe(true);
    const later = await token({ not_before: 2_000_000_000_000 });
    expect(await verifyDelegationToken(later, { delegateId: self, now: 1_900_000_000_000 })).toEqual({
      ok: false, error: "Denied: delegation token is not yet valid",
    });
    expect((await verifyDelegationToken(later, { delegateId: self, now: 2_000_000_000_000 })).ok).toBe(true);
  });

  it("for another motebit", async () => {
    expect(await verifyDelegationToken(d.json_arg, { delegateId: fill.sovereign_motebit_id })).toEqual({
      ok: false, error: "Denied: delegation token is not for this motebit",
    });
  });

  it("capability outside the scope", async () => {
    expect(await verifyDelegationToken(d.json_arg, { delegateId: self, requiredCapabilities: ["read_url", "shell"] })).toEqual({
      ok: false, error: 'Denied: capability "shell" is not within delegated scope "read_url,web_search"',
    });
    const star = await token({ scope: "*" });
    expect((await verifyDelegationToken(star, { delegateId: self, requiredCapabilities: ["shell", "anything"] })).ok).toBe(true);
  });

  it("malformed fields", async () => {
    const json = JSON.stringify({ ...d.token, expires_at: "soon" });
    expect(await verifyDelegationToken(json, { delegateId: self })).toEqual({
      ok: false, error: "Denied: delegation token is malformed: expires_at must be a number",
    });
    expect(await verifyDelegationToken(JSON.stringify({ ...d.token, delegator_public_key: "abc" }), { delegateId: self })).toEqual({
      ok: false, error: "Denied: delegation token is malformed: delegator_public_key must be a 32-byte Ed25519 key (64 hex chars)",
    });
    expect(await verifyDelegationToken(JSON.stringify({ ...d.token, signature: "!!" }), { delegateId: self })).toEqual({
      ok: false, error: "Denied: delegation token has invalid signature",
    });
  });

  it("signing with a key other than the delegator's throws", async () => {
    const { suite: _s, signature: _g, ...body } = d.token;
    await expect(signDelegationToken(body, await createSigner(demo.seed_hex))).rejects.toThrow("delegator_public_key does not match the signing key");
  });
});

describe("scopeAllows", () => {
  it('is "*" or a trimmed comma list', () => {
    expect(scopeAllows("*", "x")).toBe(true);
    expect(scopeAllows(" read_url , web_search ", "web_search")).toBe(true);
    expect(scopeAllows("read_url,web_search", "read")).toBe(false);
    expect(scopeAllows("read_url, *", "shell")).toBe(true);
    expect(scopeAllows("", "x")).toBe(false);
    expect(scopeAllows("a,,b", "")).toBe(false);
    expect(scopeAllows(null as unknown as string, "x")).toBe(false);
  });
});
