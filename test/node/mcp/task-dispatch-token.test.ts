import { describe, expect, it } from "vitest";
import { makeMotebit, OTHER_SEED, peer, TEST_SEED } from "../helpers/motebit.js";
import { memorySql } from "../helpers/sqlite.js";
import { createSigner, mintBearerToken, sovereignMotebitId, stripIdentityTag } from "../../../src/protocol/index.js";
import { dispatchTokenVerifier } from "../../../src/server/dispatch-token.js";
import { systemClock } from "../../../src/ports.js";

async function setup() {
  const sql = memorySql();
  const self = await createSigner(TEST_SEED);
  const relay = await createSigner(OTHER_SEED);
  const motebitId = await sovereignMotebitId(self.publicKeyHex);
  const verifyDispatchToken = dispatchTokenVerifier({
    sql,
    clock: systemClock,
    settings: { authToken: null, knownCallers: new Map(), relayTrust: relay.publicKeyHex, relayId: null },
    identity: { motebitId, publicKeyHex: self.publicKeyHex },
  });
  const h = await makeMotebit({ sql, verifyDispatchToken });
  const mint = (o: { aud?: string; sub?: string; ttlMs?: number } = {}) =>
    mintBearerToken({ mid: "relay-id", did: "relay-device", aud: o.aud ?? "task:dispatch", sub: o.sub ?? motebitId, ttlMs: o.ttlMs }, relay);
  return { h, mint };
}

describe("motebit_task dispatch_token", () => {
  it("accepts a relay-signed task:dispatch token once and refuses its replay", async () => {
    const { h, mint } = await setup();
    const token = await mint();
    const first = await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: token });
    expect(first.isError).toBeUndefined();
    expect(JSON.parse(stripIdentityTag(first.content[0].text)).status).toBe("completed");
    const replay = await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: token });
    expect(replay).toEqual({ content: [{ type: "text", text: "Denied: dispatch token refused (jti_replayed)" }], isError: true });
  });

  it("accepts the motebit: prefix and refuses an mcp:call token, another subject, a long lifetime and garbage, each with its reason", async () => {
    const { h, mint } = await setup();
    expect((await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: "motebit:" + (await mint()) })).isError).toBeUndefined();
    const cases: [string, string][] = [
      [await mint({ aud: "mcp:call" }), "audience_mismatch"],
      [await mint({ sub: "someone-else" }), "subject_mismatch"],
      [await mint({ ttlMs: 10 * 60_000 }), "lifetime_too_long"],
      ["not-a-token", "token_unparseable"],
    ];
    for (const [token, reason] of cases) {
      const r = await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: token });
      expect(r.content[0].text).toBe(`Denied: dispatch token refused (${reason})`);
    }
    expect(h.m.ledger.count()).toBe(1);
  });

  it("checks the delegation token before the dispatch token (docs/protocol.md §6 order)", async () => {
    const { h, mint } = await setup();
    const token = await mint();
    const r = await h.call(peer(), "motebit_task", { prompt: "hi", delegation_token: "{bad", dispatch_token: token });
    expect(r.content[0].text).toBe("Denied: delegation_token is not valid JSON");
    // The dispatch token was not consumed by the refused call.
    expect((await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: token })).isError).toBeUndefined();
  });
});

describe("who may sign a dispatch_token", () => {
  it("only the pinned relay key: the motebit's own key and a known caller's are refused, and without relayTrust every token is", async () => {
    const sql = memorySql();
    const self = await createSigner(TEST_SEED);
    const known = await createSigner(OTHER_SEED);
    const motebitId = await sovereignMotebitId(self.publicKeyHex);
    const knownId = await sovereignMotebitId(known.publicKeyHex);
    const knownCallers = new Map([[knownId, { publicKeyHex: known.publicKeyHex, trust: "trusted" as const }]]);
    const identity = { motebitId, publicKeyHex: self.publicKeyHex };
    const mint = (mid: string, signer: typeof self) =>
      mintBearerToken({ mid, did: "d", aud: "task:dispatch", sub: motebitId }, signer);
    const withRelay = dispatchTokenVerifier({ sql, clock: systemClock, settings: { authToken: null, knownCallers, relayTrust: known.publicKeyHex, relayId: null }, identity });
    expect(await withRelay(await mint(motebitId, self))).toEqual({ ok: false, reason: "no_key_for_caller" });
    expect(await withRelay(await mint("relay-x", known))).toEqual({ ok: true });
    const noRelay = dispatchTokenVerifier({ sql, clock: systemClock, settings: { authToken: null, knownCallers, relayTrust: null, relayId: null }, identity });
    expect(await noRelay(await mint(knownId, known))).toEqual({ ok: false, reason: "no_key_for_caller" });
    expect(await noRelay(await mint(motebitId, self))).toEqual({ ok: false, reason: "no_key_for_caller" });
  });
});
