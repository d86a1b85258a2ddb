// relayForwardToken (MOTEBIT_RELAY_FORWARD_TOKEN): the bearer today's reference relay presents when it forwards a
// task. It is served as the relay principal (a verified peer, never the owner), independently of authToken: either
// token works without the other, neither stands in for the other, and a wrong or missing bearer stays 401.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { localSettings, readConfigFile } from "../../../local-stdio/src/config-file.js";
import { authenticate } from "../../../src/server/auth.js";
import type { AuthSettings } from "../../../src/callers/signed-token.js";
import { readServerConfig } from "../../../src/settings/server-config.js";
import { parseStaticTokens } from "../../../src/settings/static-tokens.js";

const identity = { motebitId: "me", publicKeyHex: "00".repeat(32) };
const settings = (o: Partial<AuthSettings>): AuthSettings => ({ staticTokens: new Map(), knownCallers: new Map(), relayTrust: null, relayId: null, relayForwardToken: null, ...o });
const who = async (header: string | null, s: AuthSettings) => {
  const r = await authenticate(header, s, identity, Date.now());
  return r.ok ? r.principal : { status: r.status, body: r.body };
};

describe("the relay's forward bearer", () => {
  it("is the relay principal, named by relayId when set", async () => {
    expect(await who("Bearer fwd", settings({ relayForwardToken: "fwd" }))).toEqual({ kind: "peer", callerId: "relay:relay", via: "relay", trust: "verified" });
    expect(await who("Bearer fwd", settings({ relayForwardToken: "fwd", relayId: "r-1" }))).toEqual({ kind: "peer", callerId: "relay:r-1", via: "relay", trust: "verified" });
  });

  it("is independent of authToken: each token is only itself", async () => {
    const both = settings({ staticTokens: parseStaticTokens({ static: "owner-static-token" }, "test"), relayForwardToken: "fwd" });
    expect(await who("Bearer owner-static-token", both)).toMatchObject({ callerId: "static:static", via: "static_token" });
    expect(await who("Bearer fwd", both)).toMatchObject({ callerId: "relay:relay", via: "relay" });
    expect(await who("Bearer owner-static-token", settings({ relayForwardToken: "fwd" }))).toEqual({ status: 401, body: { error: "unauthorized" } });
    expect(await who("Bearer fwd", settings({ staticTokens: parseStaticTokens({ static: "owner-static-token" }, "test") }))).toEqual({ status: 401, body: { error: "unauthorized" } });
  });

  it("a wrong or missing bearer stays 401", async () => {
    const s = settings({ relayForwardToken: "fwd" });
    expect(await who("Bearer fwd2", s)).toEqual({ status: 401, body: { error: "unauthorized" } });
    expect(await who(null, s)).toEqual({ status: 401, body: { error: "unauthorized" } });
    expect(await who(null, settings({}))).toEqual({ status: 401, body: { error: "unauthorized — set authToken or use a motebit signed token" } });
  });

  it("may not be a static token: startup refuses it (its holders would be served as the relay)", () => {
    expect(() => readServerConfig({ env: { MOTEBIT_RELAY_FORWARD_TOKEN: "shared-token-0001", MOTEBIT_AUTH_TOKEN: "shared-token-0001" } })).toThrow(/MOTEBIT_RELAY_FORWARD_TOKEN equals a static token/);
    expect(() => readServerConfig({ env: { MOTEBIT_RELAY_FORWARD_TOKEN: "shared-token-0001", MOTEBIT_AUTH_TOKENS: '{"a": "shared-token-0001"}' } })).toThrow(/MOTEBIT_RELAY_FORWARD_TOKEN equals a static token/);
  });

  it("is read from MOTEBIT_RELAY_FORWARD_TOKEN at the edge", () => {
    expect(readServerConfig({ env: { MOTEBIT_RELAY_FORWARD_TOKEN: " fwd " } }).relayForwardToken).toBe("fwd");
    expect(readServerConfig({ env: {} }).relayForwardToken).toBeNull();
  });

  it("motebit-local: the config file's relayForwardToken, the environment winning, and a warning when others can read it", () => {
    const dir = mkdtempSync(join(tmpdir(), "forward-token-"));
    try {
      const path = join(dir, "motebit.json");
      writeFileSync(path, JSON.stringify({ relayForwardToken: "from-file" }), { mode: 0o644 });
      const warnings: string[] = [];
      const config = readConfigFile(path, (w) => warnings.push(w));
      expect(localSettings(config, {}, false).server.relayForwardToken).toBe("from-file");
      expect(warnings.join("\n")).toContain("holds relayForwardToken but other users can read it");
      // The environment wins over the file (src/settings: one rule for every setting).
      const env = { MOTEBIT_RELAY_FORWARD_TOKEN: "from-env" };
      expect(localSettings(readConfigFile(path, () => {}, env), env, false).server.relayForwardToken).toBe("from-env");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
