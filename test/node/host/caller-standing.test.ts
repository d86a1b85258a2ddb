// A stored principal's standing under the host's settings now: known callers by their current trust, the static
// token while one is configured, the relay while its key (or forward bearer) is, our own key always; owner always.
import { describe, expect, it } from "vitest";
import { callerStanding } from "../../../src/host/caller-standing.js";
import type { PeerPrincipal } from "../../../src/callers/signed-token.js";
import { parseStaticTokens, staticTokenTag } from "../../../src/settings/static-tokens.js";

const settings = (o: Partial<Parameters<typeof callerStanding>[0]> = {}) => ({
  staticTokens: parseStaticTokens({ static: "static-token-0001" }, "test"),
  knownCallers: new Map([
    ["m-ok", { publicKeyHex: "00", trust: "trusted" as const }],
    ["m-blocked", { publicKeyHex: "00", trust: "blocked" as const }],
  ]),
  relayTrust: "ab",
  relayId: null,
  ...o,
});
const peer = (via: PeerPrincipal["via"], callerId: string, trust: PeerPrincipal["trust"] = "verified"): PeerPrincipal => ({ kind: "peer", via, callerId, trust });

describe("callerStanding", () => {
  it("a known caller takes its current trust, blocked or unpinned loses it", () => {
    const s = callerStanding(settings());
    expect(s(peer("signed_token", "m-ok"))).toEqual({ ok: true, principal: peer("signed_token", "m-ok", "trusted") });
    expect(s(peer("signed_token", "m-blocked"))).toEqual({ ok: false, reason: "caller is blocked" });
    expect(s(peer("signed_token", "m-gone"))).toEqual({ ok: false, reason: "caller is no longer a known caller" });
  });

  it("a static token's caller stands while that name holds the same token, with the trust it has now", () => {
    const tokens = parseStaticTokens({ static: "static-token-0001" }, "test");
    const asked = { ...peer("static_token", "static:static"), credential: staticTokenTag(tokens.get("static")!) };
    expect(callerStanding(settings())(asked)).toEqual({ ok: true, principal: asked });
    expect(callerStanding(settings({ staticTokens: parseStaticTokens({ static: { token: "static-token-0001", trust: "trusted" } }, "t") }))(asked)).toEqual({ ok: true, principal: { ...asked, trust: "trusted" } });
    expect(callerStanding(settings({ staticTokens: new Map() }))(asked)).toEqual({ ok: false, reason: 'the static token "static" is no longer accepted' });
    expect(callerStanding(settings({ staticTokens: parseStaticTokens({ static: "static-token-0002" }, "t") }))(asked)).toEqual({ ok: false, reason: 'the static token "static" was replaced' });
    expect(callerStanding(settings({ staticTokens: parseStaticTokens({ static: { token: "static-token-0001", trust: "blocked" } }, "t") }))(asked)).toEqual({ ok: false, reason: "caller is blocked" });
  });

  it("the relay stands while its key or forward bearer is, for the configured relay id", () => {
    expect(callerStanding(settings())(peer("relay", "relay:r1")).ok).toBe(true);
    expect(callerStanding(settings({ relayId: "r2" }))(peer("relay", "relay:r1")).ok).toBe(false);
    expect(callerStanding(settings({ relayTrust: null }))(peer("relay", "relay:r1"))).toEqual({ ok: false, reason: "the relay is no longer trusted" });
    expect(callerStanding(settings({ relayTrust: null, relayForwardToken: "fwd" }))(peer("relay", "relay:relay")).ok).toBe(true);
  });

  it("our own key and the owner always stand", () => {
    const s = callerStanding(settings({ staticTokens: new Map(), knownCallers: new Map(), relayTrust: null }));
    expect(s(peer("self_signed", "me")).ok).toBe(true);
    expect(s({ kind: "owner" }).ok).toBe(true);
  });
});
