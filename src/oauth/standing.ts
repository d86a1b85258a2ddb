// An OAuth caller stands while its grant does: re-read from the store on every admission and tool step, so a
// revoked client's next request fails and its stored tasks end with signed failed receipts.
import type { CallerStanding } from "../principal.js";
import type { OAuthStore } from "./store.js";

export function withOAuthStanding(inner: CallerStanding, store: OAuthStore): CallerStanding {
  return (p) => {
    if (p.kind !== "peer" || p.via !== "oauth") return inner(p);
    if (p.grant === undefined || !store.isLive(p.grant)) return { ok: false, reason: "the OAuth client's access was revoked" };
    return { ok: true, principal: p };
  };
}
