// A caller's standing now, from the host's current settings: the trust a stored principal carried when its work was
// accepted (an MCP task row, a long task) is re-read before the work runs and before each tool step, so a caller
// blocked, unpinned or no longer admitted since then loses it. Fails closed: a way in that is gone is no standing.
import type { CallerStanding, Standing } from "../principal.js";
import type { AuthSettings, PeerPrincipal } from "../server/auth.js";

/** The host's ways in; `relayForwardToken` (the relay's forward bearer, when the host has one) also admits the relay. */
export type StandingSettings = Pick<AuthSettings, "authToken" | "knownCallers" | "relayTrust" | "relayId"> & {
  relayForwardToken?: string | null;
  /** A fleet motebit keeps only its static token's hash. */
  authTokenSha256?: string | null;
};

export function callerStanding(settings: StandingSettings): CallerStanding {
  return (p) => {
    if (p.kind === "owner") return { ok: true, principal: p };
    const now = (trust: PeerPrincipal["trust"]): Standing =>
      trust === "blocked" ? { ok: false, reason: "caller is blocked" } : { ok: true, principal: { ...p, trust } };
    switch (p.via) {
      case "self_signed":
        return now(p.trust);
      case "static_token":
        return settings.authToken !== null || (settings.authTokenSha256 ?? null) !== null
          ? now(p.trust)
          : { ok: false, reason: "the static token is no longer accepted" };
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
