import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { runCli, tempDir } from "./run-cli.js";
import { parseBearerToken, publicKeyFromSeed, sovereignMotebitId, verifyBearerToken } from "../../../src/protocol/index.js";
import { authenticate } from "../../../src/server/auth.js";

vi.setConfig({ testTimeout: 90_000 });

describe("motebit-local token", () => {
  it("mints a motebit: token the edge's auth accepts for the server it names, once per jti", async () => {
    const dir = tempDir();
    expect((await runCli(["init", "--dir", dir, "--type", "service"])).code).toBe(0);
    const seed = readFileSync(join(dir, "motebit.key"), "utf8").trim();
    const pub = await publicKeyFromSeed(seed);
    const mid = await sovereignMotebitId(pub);
    const r = await runCli(["token", "--key", join(dir, "motebit.key"), "--sub", mid, "--ttl", "30"]);
    expect(r.code).toBe(0);
    const token = r.stdout.trim();
    expect(token.startsWith("motebit:")).toBe(true);
    const parsed = parseBearerToken(token.slice("motebit:".length));
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(parsed.claims).toMatchObject({ mid, aud: "mcp:call", sub: mid, did: "motebit-local" });
    expect(parsed.claims.exp - parsed.claims.iat).toBe(30_000);
    expect((await verifyBearerToken(token.slice(8), pub)).ok).toBe(true);
    // A token signed with the server's own key gets in as a peer, never the owner.
    const auth = await authenticate(`Bearer ${token}`, { staticTokens: new Map(), knownCallers: new Map(), relayTrust: null, relayId: null }, { motebitId: mid, publicKeyHex: pub }, Date.now());
    expect(auth).toMatchObject({ ok: true, principal: { kind: "peer", via: "self_signed" } });
  });

  it("mints task:dispatch tokens on request and refuses bad flags with exit 2", async () => {
    const dir = tempDir();
    await runCli(["init", "--dir", dir]);
    const key = join(dir, "motebit.key");
    const dispatch = await runCli(["token", "--key", key, "--sub", "x", "--aud", "task:dispatch"]);
    const parsed = parseBearerToken(dispatch.stdout.trim().slice(8));
    expect(parsed.ok && parsed.claims.aud).toBe("task:dispatch");
    for (const args of [["--sub", "x"], ["--key", key], ["--key", key, "--sub", "x", "--aud", "anything"], ["--key", key, "--sub", "x", "--ttl", "301"]]) {
      const bad = await runCli(["token", ...args]);
      expect(bad.code, args.join(" ")).toBe(2);
      expect(bad.stdout).toBe("");
    }
    const missing = await runCli(["token", "--key", join(dir, "nope.key"), "--sub", "x"]);
    expect(missing.code).toBe(1);
  });
});
