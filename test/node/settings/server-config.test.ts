import { describe, expect, it } from "vitest";
import { readIdentitySecrets, readServerConfig } from "../../../src/settings/server-config.js";
import { parseKnownCallers } from "../../../src/settings/known-callers.js";
import { StartupError } from "../../../src/settings/startup-error.js";
import { sha256HexSync } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";

const KEY = keys.known_caller.public_key_hex;

function startupError(f: () => unknown): string {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(StartupError);
    return (e as Error).message;
  }
  throw new Error("expected a StartupError");
}

describe("server config", () => {
  it("defaults: no static token, no known callers, no relay, 600/min, 1 MiB, 30 min sessions, 32 per caller", () => {
    expect(readServerConfig({ env: {} })).toEqual({
      staticTokens: new Map(),
      knownCallers: new Map(),
      relayTrust: null,
      relayId: null,
      relayForwardToken: null,
      allowedOrigins: [],
      rateLimitPerMinute: 600,
      maxBodyBytes: 1024 * 1024,
      sessionTtlMs: 30 * 60_000,
      maxSessionsPerCaller: 32,
    });
  });

  it("reads every variable", () => {
    const c = readServerConfig({ env: {
      MOTEBIT_AUTH_TOKEN: "s3cret-static-token",
      MOTEBIT_KNOWN_CALLERS: JSON.stringify({ "peer-1": { public_key: KEY.toUpperCase(), trust: "trusted" } }),
      MOTEBIT_RELAY_TRUST: KEY,
      MOTEBIT_ALLOWED_ORIGINS: "https://a.example.com, https://B.example.com:8443/",
      MOTEBIT_RATE_LIMIT: "0",
    } });
    expect(c.staticTokens).toEqual(new Map([["static", { sha256: sha256HexSync("s3cret-static-token"), trust: "verified" }]]));
    expect(c.knownCallers.get("peer-1")).toEqual({ publicKeyHex: KEY, trust: "trusted" });
    expect(c.relayTrust).toBe(KEY);
    expect(c.allowedOrigins).toEqual(["https://a.example.com", "https://b.example.com:8443"]);
    expect(c.rateLimitPerMinute).toBe(0);
  });

  it("an empty value counts as unset", () => {
    expect(readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: "", MOTEBIT_KNOWN_CALLERS: " ", MOTEBIT_RATE_LIMIT: "" } })).toMatchObject({
      staticTokens: new Map(),
      rateLimitPerMinute: 600,
    });
  });

  it("names the variable that is wrong", () => {
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_RELAY_TRUST: "abc" } }))).toMatch(/^MOTEBIT_RELAY_TRUST must be a 32-byte Ed25519 public key in hex/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_RATE_LIMIT: "ten" } }))).toMatch(/^MOTEBIT_RATE_LIMIT must be a whole number/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_RATE_LIMIT: "-1" } }))).toMatch(/^MOTEBIT_RATE_LIMIT/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_ALLOWED_ORIGINS: "https://ok.example.com,*" } }))).toBe(
      'MOTEBIT_ALLOWED_ORIGINS: "*" is not an origin like https://app.example.com',
    );
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_ALLOWED_ORIGINS: "https://x.example.com/path" } }))).toMatch(/not an origin/);
  });

  it("identity secrets are optional", () => {
    expect(readIdentitySecrets({ env: {} })).toEqual({ privateKeyHex: null, identityFileText: null });
    expect(readIdentitySecrets({ env: { MOTEBIT_PRIVATE_KEY: ` ${keys.server.seed_hex}\n`, MOTEBIT_IDENTITY: "---\n" } })).toEqual({
      privateKeyHex: keys.server.seed_hex,
      identityFileText: "---\n",
    });
  });
});

describe("MOTEBIT_KNOWN_CALLERS", () => {
  it("accepts JSON text or an object (a wrangler.toml table); trust defaults to first_contact", () => {
    const fromText = parseKnownCallers(JSON.stringify({ a: { public_key: KEY } }));
    const fromObject = parseKnownCallers({ a: { public_key: KEY, trust: "blocked" } });
    expect(fromText.get("a")).toEqual({ publicKeyHex: KEY, trust: "first_contact" });
    expect(fromObject.get("a")).toEqual({ publicKeyHex: KEY, trust: "blocked" });
  });

  it("malformed input is a startup error with a clear message", () => {
    expect(startupError(() => parseKnownCallers("{not json"))).toMatch(/^MOTEBIT_KNOWN_CALLERS is not valid JSON \(/);
    expect(startupError(() => parseKnownCallers("[]"))).toMatch(/^MOTEBIT_KNOWN_CALLERS must be a JSON object/);
    expect(startupError(() => parseKnownCallers({ a: "key" }))).toBe('MOTEBIT_KNOWN_CALLERS["a"] must be an object with "public_key" and "trust"');
    expect(startupError(() => parseKnownCallers({ a: { public_key: "00" } }))).toMatch(
      /^MOTEBIT_KNOWN_CALLERS\["a"\]\.public_key must be a 32-byte Ed25519 public key in hex/,
    );
    expect(startupError(() => parseKnownCallers({ a: { public_key: KEY, trust: "owner" } }))).toBe(
      'MOTEBIT_KNOWN_CALLERS["a"].trust must be one of first_contact, verified, trusted, blocked, got "owner"',
    );
  });
});

describe("MOTEBIT_AUTH_TOKENS", () => {
  it("names each token, keeps only its SHA-256, and adds MOTEBIT_AUTH_TOKEN as the token named static", () => {
    const c = readServerConfig({ env: {
      MOTEBIT_AUTH_TOKEN: "the-static-token-01",
      MOTEBIT_AUTH_TOKENS: JSON.stringify({ ci: "the-ci-token-000001", ops: { token: "the-ops-token-00001", trust: "trusted" } }),
    } });
    expect(c.staticTokens).toEqual(
      new Map([
        ["ci", { sha256: sha256HexSync("the-ci-token-000001"), trust: "verified" }],
        ["ops", { sha256: sha256HexSync("the-ops-token-00001"), trust: "trusted" }],
        ["static", { sha256: sha256HexSync("the-static-token-01"), trust: "verified" }],
      ]),
    );
    expect(JSON.stringify([...c.staticTokens])).not.toContain("the-ci-token");
  });

  it("refuses at startup a token under 16 characters, a bad name or trust, a name or token given twice", () => {
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: "short-token" } }))).toBe("MOTEBIT_AUTH_TOKEN must be a string of at least 16 characters");
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKENS: '{"ci": "short"}' } }))).toBe('MOTEBIT_AUTH_TOKENS["ci"] must be a string of at least 16 characters');
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKENS: '{"c i": "long-enough-token-1"}' } }))).toMatch(/a token name is 1-64 characters/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKENS: '{"ci": {"token": "long-enough-token-1", "trust": "owner"}}' } }))).toMatch(/trust must be one of/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKENS: "[]" } }))).toMatch(/^MOTEBIT_AUTH_TOKENS must be a JSON object/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKENS: '{"a": "long-enough-token-1", "b": "long-enough-token-1"}' } }))).toMatch(/the same token under two names/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: "long-enough-token-1", MOTEBIT_AUTH_TOKENS: '{"static": "long-enough-token-2"}' } }))).toMatch(/names one too/);
    expect(startupError(() => readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: "long-enough-token-1", MOTEBIT_AUTH_TOKENS: '{"a": "long-enough-token-1"}' } }))).toMatch(/each caller needs its own token/);
  });
});
