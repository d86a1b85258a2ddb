// A caller's standing now, from the host's current settings: the trust a stored principal carried when its work was
// accepted (an MCP task row, a long task) is re-read before the work runs and before each tool step, so a caller
// blocked, unpinned or no longer admitted since then loses it. Fails closed: a way in that is gone is no standing.
import type { CallerStanding, Standing } from "../principal.js";
import { STATIC_CALLER_PREFIX, staticTokenTag } from "../settings/static-tokens.js";
import type { AuthSettings, PeerPrincipal } from "../callers/signed-token.js";

/** The host's ways in; `relayForwardToken` (the relay's forward bearer, when the host has one) also admits the relay. */
export type StandingSettings = Pick<AuthSettings, "staticTokens" | "knownCallers" | "relayTrust" | "relayId"> & {
  relayForwardToken?: string | null;
};

export function callerStanding(settings: StandingSettings): CallerStanding {
  return (p) => {
    if (p.kind === "owner") return { ok: true, principal: p };
    const now = (trust: PeerPrincipal["trust"]): Standing =>
      trust === "blocked" ? { ok: false, reason: "caller is blocked" } : { ok: true, principal: { ...p, trust } };
    switch (p.via) {
      case "self_signed":
        return now(p.trust);
      case "static_token": {
        // The same name with another token is another holder: the work stays with the token that asked for it.
        const name = p.callerId.slice(STATIC_CALLER_PREFIX.length);
        const token = p.callerId.startsWith(STATIC_CALLER_PREFIX) ? settings.staticTokens.get(name) : undefined;
        if (token === undefined) return { ok: false, reason: `the static token "${name}" is no longer accepted` };
        return staticTokenTag(token) === p.credential ? now(token.trust) : { ok: false, reason: `the static token "${name}" was replaced` };
      }
      case "signed_token": {
        const known = settings.knownCallers.get(p.callerId);
        return known ? now(known.trust) : { ok: false, reason: "caller is no longer a known caller" };
      }
      case "relay": {
        const signed = settings.relayTrust !== null && (settings.relayId === null || p.callerId === `relay:${settings.relayId}`);
        const relayed = signed || (settings.relayForwardToken ?? null) !== null;
        return relayed ? now(p.trust) : { ok: false, reason: "the relay is no longer trusted" };
      }
      default:
        return { ok: false, reason: "unknown way in" };
    }
  };
}

/**
 * The standing under the settings current when it is asked (a host that changes them in place: a fleet PATCH),
 * so a run started under older settings stops at its next step. `read` null: the motebit itself is retired.
 */
export function currentStanding(read: () => StandingSettings | null): CallerStanding {
  return (p) => {
    const settings = read();
    return settings === null ? { ok: false, reason: "this motebit was retired" } : callerStanding(settings)(p);
  };
}
