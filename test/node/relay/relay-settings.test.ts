// Where the relay settings come from: the environment wins over the config file; bad values name their source.
import { describe, expect, it } from "vitest";
import { readRelaySettings } from "../../../src/settings/relay.js";
import { authenticate } from "../../../src/server/auth.js";
import { createSigner, mintBearerToken, sovereignMotebitId } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";

describe("relay settings", () => {
  it("none set: no relay, the documented defaults", () => {
    expect(readRelaySettings({ env: {} })).toEqual({ syncUrl: null, publicUrl: null, apiToken: null, selfTest: false, selfTestTimeoutMs: 60_000, heartbeatMs: 300_000 });
  });

  it("env wins over the file; URLs lose a trailing slash or /mcp", () => {
    const s = readRelaySettings({ env: { MOTEBIT_SYNC_URL: "https://relay.example.com/", MOTEBIT_SELF_TEST: "1" }, file: { fields: { syncUrl: "https://other.example.com", publicUrl: "https://me.example.com/mcp", apiToken: "tok", selfTestTimeoutMs: 5_000 }, label: "" } });
    expect(s).toMatchObject({ syncUrl: "https://relay.example.com", publicUrl: "https://me.example.com", apiToken: "tok", selfTest: true, selfTestTimeoutMs: 5_000 });
  });

  it("bad values are start-up errors naming where they came from", () => {
    expect(() => readRelaySettings({ env: { MOTEBIT_SYNC_URL: "relay.example.com" } })).toThrow(/MOTEBIT_SYNC_URL must be an http\(s\) URL/);
    expect(() => readRelaySettings({ env: {}, file: { fields: { publicUrl: "ftp://x" }, label: "config file /c.json: " } })).toThrow(/^config file \/c\.json: publicUrl must be an http\(s\) URL/);
    expect(() => readRelaySettings({ env: { MOTEBIT_SELF_TEST: "yes" } })).toThrow(/MOTEBIT_SELF_TEST must be 1 or 0/);
    expect(() => readRelaySettings({ env: {}, file: { fields: { selfTestTimeoutMs: 10 }, label: "" } })).toThrow(/selfTestTimeoutMs must be a whole number of milliseconds from 1000/);
  });
});

describe("relayId narrows the relay key to one mid", () => {
  it("with relayId only that mid is the relay; without it, any mid not otherwise known (the relay key verifies it)", async () => {
    const relay = await createSigner(keys.relay.seed_hex);
    const relayId = await sovereignMotebitId(relay.publicKeyHex);
    const server = { motebitId: keys.server.sovereign_motebit_id, publicKeyHex: keys.server.public_key_hex };
    const token = (mid: string) => mintBearerToken({ mid, did: "d", aud: "mcp:call", sub: server.motebitId }, relay);
    const settings = (relayIdSetting: string | null) => ({ staticTokens: new Map(), knownCallers: new Map(), relayTrust: relay.publicKeyHex, relayId: relayIdSetting });
    const now = Date.now();
    expect(await authenticate(`Bearer motebit:${await token(relayId)}`, settings(relayId), server, now)).toMatchObject({ ok: true, principal: { callerId: `relay:${relayId}`, via: "relay", trust: "verified" } });
    expect(await authenticate(`Bearer motebit:${await token("some-other-mid")}`, settings(relayId), server, now)).toMatchObject({ ok: false, body: { reason: "no_key_for_caller" } });
    expect(await authenticate(`Bearer motebit:${await token("some-other-mid")}`, settings(null), server, now)).toMatchObject({ ok: true, principal: { callerId: "relay:some-other-mid" } });
  });
});
