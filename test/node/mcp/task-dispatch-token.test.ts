import { describe, expect, it } from "vitest";
import { makeMotebit, OTHER_SEED, peer, relayPeer, TEST_SEED } from "../helpers/motebit.js";
import { RELAY_TASK_ID_REFUSAL } from "../../../src/agent/task.js";
import { memorySql } from "../helpers/sqlite.js";
import { createSigner, mintBearerToken, sovereignMotebitId, stripIdentityTag } from "../../../src/protocol/index.js";
import { dispatchTokenVerifier } from "../../../src/host/dispatch-token.js";
import { systemClock } from "../../../src/ports.js";

async function setup() {
  const sql = memorySql();
  const self = await createSigner(TEST_SEED);
  const relay = await createSigner(OTHER_SEED);
  const motebitId = await sovereignMotebitId(self.publicKeyHex);
  const verifyDispatchToken = dispatchTokenVerifier({
    sql,
    clock: systemClock,
    settings: { staticTokens: new Map(), knownCallers: new Map(), relayTrust: relay.publicKeyHex, relayId: null },
    identity: { motebitId, publicKeyHex: self.publicKeyHex },
  });
  const h = await makeMotebit({ sql, verifyDispatchToken });
  // A token is bound to its presenter through mid: peer() presents as "peer-a".
  const mint = (o: { aud?: string; sub?: string; ttlMs?: number; mid?: string } = {}) =>
    mintBearerToken({ mid: o.mid ?? "peer-a", did: "relay-device", aud: o.aud ?? "task:dispatch", sub: o.sub ?? motebitId, ttlMs: o.ttlMs }, relay);
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
    const withRelay = dispatchTokenVerifier({ sql, clock: systemClock, settings: { staticTokens: new Map(), knownCallers, relayTrust: known.publicKeyHex, relayId: null }, identity });
    expect(await withRelay(await mint(motebitId, self), relayPeer)).toEqual({ ok: false, reason: "no_key_for_caller" });
    expect(await withRelay(await mint("relay-x", known), relayPeer)).toEqual({ ok: true });
    const noRelay = dispatchTokenVerifier({ sql, clock: systemClock, settings: { staticTokens: new Map(), knownCallers, relayTrust: null, relayId: null }, identity });
    expect(await noRelay(await mint(knownId, known), relayPeer)).toEqual({ ok: false, reason: "no_key_for_caller" });
    expect(await noRelay(await mint(motebitId, self), relayPeer)).toEqual({ ok: false, reason: "no_key_for_caller" });
  });
});

describe("a dispatch token is bound to its presenter, and relay_task_id to the relay or a dispatch token", () => {
  it("another caller, a static-token caller or the owner cannot present a token minted for peer-a; peer-a still can afterwards", async () => {
    const { h, mint } = await setup();
    const token = await mint();
    const staticCaller = { kind: "peer" as const, callerId: "static", via: "static_token" as const, trust: "verified" as const };
    for (const p of [peer("verified", "peer-b"), staticCaller, { kind: "owner" as const }]) {
      const r = await h.call(p, "motebit_task", { prompt: "hi", dispatch_token: token });
      expect(r.content[0].text).toBe("Denied: dispatch token refused (presenter_mismatch)");
    }
    // The mismatches spent nothing: the right presenter's use is its first.
    expect((await h.call(peer(), "motebit_task", { prompt: "hi", dispatch_token: token })).isError).toBeUndefined();
    // The relay itself may present a token it signed for anyone.
    expect((await h.call(relayPeer, "motebit_task", { prompt: "hi", dispatch_token: await mint({ mid: "someone" }) })).isError).toBeUndefined();
  });

  it("a peer's relay_task_id without a dispatch token is refused; with its own valid token it is signed in", async () => {
    const { h, mint } = await setup();
    const bare = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-1" });
    expect(bare).toEqual({ content: [{ type: "text", text: RELAY_TASK_ID_REFUSAL }], isError: true });
    expect(h.m.ledger.count()).toBe(0);
    const ok = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-1", dispatch_token: await mint() });
    expect(JSON.parse(stripIdentityTag(ok.content[0].text)).relay_task_id).toBe("rt-1");
    const fromRelay = await h.call(relayPeer, "motebit_task", { prompt: "hi", relay_task_id: "rt-2" });
    expect(JSON.parse(stripIdentityTag(fromRelay.content[0].text)).relay_task_id).toBe("rt-2");
  });

  it("a forged dispatch token is refused before an existing receipt for the relay_task_id is returned", async () => {
    const { h, mint } = await setup();
    const first = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-9", dispatch_token: await mint() });
    expect(first.isError).toBeUndefined();
    const forged = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-9", dispatch_token: "not-a-token" });
    expect(forged.content[0].text).toBe("Denied: dispatch token refused (token_unparseable)");
    const noToken = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-9" });
    expect(noToken.content[0].text).toBe(RELAY_TASK_ID_REFUSAL);
    // With a fresh valid token the retry gets the receipt already issued.
    const retry = await h.call(peer(), "motebit_task", { prompt: "hi", relay_task_id: "rt-9", dispatch_token: await mint() });
    expect(retry.content[0].text).toBe(first.content[0].text);
  });
});
