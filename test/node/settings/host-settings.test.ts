// One assembly of a host's settings (src/settings/host-settings.ts): every section from the same sources, the
// environment winning over the config file, the host's kind deciding what it may read, and a fleet motebit's
// record replacing the deployment's identity and callers (and refused when a token is the relay's forward bearer).
import { describe, expect, it } from "vitest";
import { asFleetMotebit, readHostSettings, type FleetMotebitRecord } from "../../../src/settings/host-settings.js";
import { StartupError } from "../../../src/settings/startup-error.js";
import { sha256HexSync } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";

const EDGE = { host: "edge", hasAiBinding: false } as const;
const FORWARD = "the-relay-forward-token";

const deploymentEnv = {
  MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
  MOTEBIT_AUTH_TOKEN: "deployment-static-token",
  MOTEBIT_KNOWN_CALLERS: JSON.stringify({ "peer-1": { public_key: keys.known_caller.public_key_hex, trust: "trusted" } }),
  MOTEBIT_RELAY_FORWARD_TOKEN: FORWARD,
  MOTEBIT_RELAY_API_TOKEN: "deployment-relay-api-token",
  MOTEBIT_SYNC_URL: "https://relay.example.com",
  MOTEBIT_ALLOWED_ORIGINS: "https://app.example.com",
  MOTEBIT_TASK_TIMEOUT_MS: "900",
};

const record = (token: string): FleetMotebitRecord => ({
  identityFileText: "---\nthe fleet motebit's own\n",
  knownCallers: {},
  staticTokens: { ci: { sha256: sha256HexSync(token), trust: "verified" } },
});

describe("a host's settings, read in one place", () => {
  it("every section from the same sources; the environment wins over the file in each", () => {
    const file = { fields: { rateLimit: 30, syncUrl: "https://file-relay.example.com", taskTimeoutMs: 5_000, MOTEBIT_MODE: "direct" }, label: "config file /c.json: " };
    const s = readHostSettings({ env: { MOTEBIT_SYNC_URL: "https://env-relay.example.com", MOTEBIT_TASK_TIMEOUT_MS: "7000" }, file }, { host: "local", direct: false });
    expect(s.server.rateLimitPerMinute).toBe(30);
    expect(s.relay.syncUrl).toBe("https://env-relay.example.com");
    expect(s.ai).toMatchObject({ mode: "direct", taskTimeoutMs: 7_000 });
  });

  it("a bad value in any section is a StartupError naming its place", () => {
    expect(() => readHostSettings({ env: { MOTEBIT_RATE_LIMIT: "many" } }, EDGE)).toThrow(/^MOTEBIT_RATE_LIMIT must be a whole number/);
    expect(() => readHostSettings({ env: { MOTEBIT_SYNC_URL: "relay" } }, EDGE)).toThrow(/^MOTEBIT_SYNC_URL must be an http\(s\) URL/);
    expect(() => readHostSettings({ env: { MOTEBIT_MODE: "ai" } }, EDGE)).toThrow(/needs ANTHROPIC_API_KEY/);
    expect(() => readHostSettings({ env: {}, file: { fields: { publicUrl: "ftp://x" }, label: "config file /c.json: " } }, { host: "local", direct: false })).toThrow(
      /^config file \/c\.json: publicUrl must be an http\(s\) URL/,
    );
  });

  it("the host's kind: only the edge reads its key from settings or has a Workers AI binding; --direct wins on motebit-local", () => {
    const env = { MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, ANTHROPIC_API_KEY: "sk-test" };
    expect(readHostSettings({ env }, EDGE).identity.privateKeyHex).toBe(keys.server.seed_hex);
    expect(readHostSettings({ env }, { host: "local", direct: false }).identity).toEqual({ privateKeyHex: null, identityFileText: null });
    expect(readHostSettings({ env }, { host: "local", direct: false }).ai.mode).toBe("ai");
    expect(readHostSettings({ env }, { host: "local", direct: true }).ai.mode).toBe("direct");
    expect(() => readHostSettings({ env: { MOTEBIT_EMBEDDER: "workers-ai" } }, { host: "local", direct: false })).toThrow(/exists only at the edge/);
    expect(readHostSettings({ env: { MOTEBIT_EMBEDDER: "workers-ai" } }, { host: "edge", hasAiBinding: true }).ai.embedder).toBe("workers-ai");
  });

  it("a fleet motebit: its own identity and callers, no relay API token; the relay, origins and AI settings shared", () => {
    const deployment = readHostSettings({ env: deploymentEnv }, EDGE);
    const own = readHostSettings({ env: deploymentEnv, fleet: record("fleet-ci-token-0001") }, EDGE);
    expect(own.identity).toEqual({ privateKeyHex: null, identityFileText: "---\nthe fleet motebit's own\n" });
    expect([...own.server.staticTokens.keys()]).toEqual(["ci"]);
    expect(own.server.knownCallers.size).toBe(0);
    expect(own.relay).toEqual({ ...deployment.relay, apiToken: null });
    expect(own.server).toMatchObject({ relayForwardToken: FORWARD, allowedOrigins: ["https://app.example.com"] });
    expect(own.ai).toEqual(deployment.ai);
    // Applied again to a newer record it gives that record's settings (it replaces, never merges).
    expect([...asFleetMotebit(own, { ...record("x".repeat(16)), staticTokens: {} }).server.staticTokens.keys()]).toEqual([]);
  });

  it("a fleet motebit whose static token is the relay's forward bearer does not start: the rule a host's start-up uses", () => {
    let error: unknown;
    try {
      readHostSettings({ env: deploymentEnv, fleet: record(FORWARD) }, EDGE);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(StartupError);
    expect((error as Error).message).toBe('MOTEBIT_RELAY_FORWARD_TOKEN equals a static token (the one named "ci"): its holders would be served as the relay; give each its own');
    expect(() => readHostSettings({ env: { ...deploymentEnv, MOTEBIT_AUTH_TOKEN: FORWARD } }, EDGE)).toThrow(/equals a static token \(the one named "static"\)/);
  });
});
