// The scope a refresh asks for (RFC 6749 §6): absent, the grant's; else a subset of it, which the new access token
// carries alone (the grant, and so the next refresh, keeps what the owner approved). Never wider: that takes consent.
import { isWithin, parseScope } from "../../policy/admission/oauth-scopes.js";

/** The access token's scope for this refresh, or null when it asks for one the grant does not hold (invalid_scope). */
export function narrowedScope(asked: string | undefined, granted: string): string | null {
  if (asked === undefined) return granted;
  const scope = parseScope(asked);
  return scope !== null && isWithin(scope, granted) ? scope : null;
}
