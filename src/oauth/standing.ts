// Whether an OAuth caller's grant stands: the one rule, re-read from the store on every admission and tool step, so
// a revoked client's next request fails and its stored tasks end with signed failed receipts. The backend refuses
// such a request before it touches anything (http/admission.ts); the motebit's caller standing asks the same.
import type { CallerStanding, Principal } from "../principal.js";
import type { OAuthStore } from "./store.js";

/** null for a caller that did not come through OAuth (its standing is not this rule's); else whether its grant stands. */
export function oauthGrantStands(store: OAuthStore, p: Principal): boolean | null {
  if (p.kind !== "peer" || p.via !== "oauth") return null;
  return p.grant !== undefined && store.isLive(p.grant);
}

export function withOAuthStanding(inner: CallerStanding, store: OAuthStore): CallerStanding {
  return (p) => {
    const stands = oauthGrantStands(store, p);
    if (stands === null) return inner(p);
    return stands ? { ok: true, principal: p } : { ok: false, reason: "the OAuth client's access was revoked" };
  };
}
