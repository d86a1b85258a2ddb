// --config FILE: the one source of authToken and the other settings; relative paths resolve against its folder.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { localSettings, readConfigFile } from "../../../local-stdio/src/config-file.js";
import { DEFAULT_RATE_LIMIT_PER_MINUTE } from "../../../src/settings/server-config.js";
import { callText, connectStdio, initMotebit, tempDir } from "./helpers/local-cli.js";

const RELAY = "ab".repeat(32);
const CALLER_KEY = "cd".repeat(32);

describe("the serve config file", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const write = (name: string, value: unknown, mode = 0o600) => {
    const p = join(tmp.dir, name);
    writeFileSync(p, typeof value === "string" ? value : JSON.stringify(value));
    chmodSync(p, mode);
    return p;
  };

  it("reads every field into the edge's server settings", () => {
    const cfg = readConfigFile(
      write("full.json", {
        authToken: "config-file-token-1",
        privateKeyPath: "keys/motebit.key",
        dataDir: "state",
        knownCallers: { "peer-1": { public_key: CALLER_KEY, trust: "trusted" } },
        relayTrust: RELAY.toUpperCase(),
        allowedOrigins: ["https://App.Example.com/"],
        rateLimit: 30,
        taskTimeoutMs: 5000,
      }),
    );
    expect(cfg.privateKeyPath).toBe(join(tmp.dir, "keys/motebit.key"));
    expect(cfg.dataDir).toBe(join(tmp.dir, "state"));
    const { ai, server } = localSettings(cfg, {}, true);
    expect(ai.taskTimeoutMs).toBe(5000);
    expect([...server.staticTokens.keys()]).toEqual(["static"]);
    expect(server).toMatchObject({ relayTrust: RELAY, allowedOrigins: ["https://app.example.com"], rateLimitPerMinute: 30 });
    expect(server.knownCallers.get("peer-1")).toEqual({ publicKeyHex: CALLER_KEY, trust: "trusted" });
  });

  it("defaults to no token, no callers, no relay and the edge's rate limit", () => {
    const cfg = readConfigFile(write("empty.json", {}));
    const { server } = localSettings(cfg, {}, false);
    expect(server.staticTokens.size).toBe(0);
    expect(server).toMatchObject({ relayTrust: null, allowedOrigins: [], rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE });
    expect(server.knownCallers.size).toBe(0);
    expect(cfg.durability).toBe("normal");
    expect(readConfigFile(write("full.json", { durability: "full" })).durability).toBe("full");
  });

  it.each([
    [{ authToken: "" }, /authToken must be a non-empty string/],
    [{ authToken: 42 }, /authToken must be a non-empty string/],
    [{ relayTrust: "abc" }, /relayTrust must be a 32-byte Ed25519 public key/],
    [{ knownCallers: { x: { public_key: "zz" } } }, /knownCallers\["x"\]\.public_key/],
    [{ knownCallers: { x: { public_key: CALLER_KEY, trust: "owner" } } }, /knownCallers\["x"\]\.trust must be one of/],
    [{ allowedOrigins: 5 }, /allowedOrigins must be an array/],
    [{ allowedOrigins: ["ftp://a.example"] }, /allowedOrigins: "ftp:\/\/a.example" is not an origin/],
    [{ rateLimit: -1 }, /rateLimit must be a whole number/],
    [{ taskTimeoutMs: 0 }, /taskTimeoutMs must be a whole number of milliseconds/],
    [{ durability: "FULL" }, /durability must be one of normal, full, got "FULL"/],
    [[], /must be a JSON object/],
  ])("refuses %j", (value, message) => {
    expect(() => readConfigFile(write("bad.json", value))).toThrow(message);
  });

  it("the environment wins over the file for every setting; the file may use a setting's key or its environment name", () => {
    const env = { MOTEBIT_RATE_LIMIT: "7" };
    const cfg = readConfigFile(write("both.json", { rateLimit: 30, MOTEBIT_RELAY_ID: "relay-file", relayForwardToken: "fwd" }), () => {}, env);
    expect(localSettings(cfg, env, false).server).toMatchObject({ rateLimitPerMinute: 7, relayId: "relay-file", relayForwardToken: "fwd" });
    expect(() => readConfigFile(write("badenv.json", {}), () => {}, { MOTEBIT_RATE_LIMIT: "many" })).toThrow(/^MOTEBIT_RATE_LIMIT must be a whole number/);
    // A bad value in the file that the environment overrides is never used, so it stops nothing.
    expect(readConfigFile(write("hidden.json", { taskTimeoutMs: 0 }), () => {}, { MOTEBIT_TASK_TIMEOUT_MS: "900" }).path).not.toBeNull();
  });

  it("warns when a file holding authToken is readable by others", () => {
    const warnings: string[] = [];
    readConfigFile(write("open.json", { authToken: "config-file-token-1" }, 0o644), (w) => warnings.push(w));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/holds authToken but other users can read it \(chmod 600/);
    const none: string[] = [];
    readConfigFile(write("closed.json", { authToken: "config-file-token-1" }, 0o600), (w) => none.push(w));
    expect(none).toEqual([]);
  });

  it("warns when a file holding named tokens (authTokens, an object) is readable by others", () => {
    const warnings: string[] = [];
    readConfigFile(write("open-named.json", { authTokens: { ci: "config-file-token-1" } }, 0o644), (w) => warnings.push(w));
    expect(warnings).toEqual([expect.stringMatching(/holds authTokens but other users can read it/)]);
  });

  it("warns for a secret under its environment name too (the file accepts both names)", () => {
    for (const name of ["MOTEBIT_AUTH_TOKEN", "MOTEBIT_RELAY_FORWARD_TOKEN", "MOTEBIT_RELAY_API_TOKEN"]) {
      const warnings: string[] = [];
      readConfigFile(write(`open-${name}.json`, { [name]: "a-secret-value-here" }, 0o644), (w) => warnings.push(w));
      expect(warnings, name).toEqual([expect.stringMatching(new RegExp(`holds ${name} but other users can read it`))]);
    }
  });

  it("serve finds the key at privateKeyPath and keeps state in dataDir", async () => {
    const identity = await initMotebit(join(tmp.dir, "id"));
    mkdirSync(join(tmp.dir, "vault"));
    renameSync(join(tmp.dir, "id", "motebit.key"), join(tmp.dir, "vault", "motebit.key"));
    const config = write("serve.json", { privateKeyPath: "vault/motebit.key", dataDir: "serve-state" });
    const s = await connectStdio(["--identity", identity, "--config", config]);
    try {
      expect(s.stderr()).toContain(`data: ${join(tmp.dir, "serve-state")}`);
      expect((await callText(s.client, "motebit_identity")).text).toContain("motebit/identity@1.0");
    } finally {
      await s.close();
    }
  });
});
