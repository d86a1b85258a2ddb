// Admission of an OAuth caller where the grants are: the Worker checked the access token's signature, this checks
// that its grant still stands (the one rule, ../standing.ts), before the request touches anything (a revoked client
// is refused at once).
import type { Principal } from "../../principal.js";
import { jsonResponse } from "../../server/responses.js";
import { oauthGrantStands } from "../standing.js";
import type { OAuthStore } from "../store.js";

export function revokedGrantRefusal(store: OAuthStore, p: Principal): Response | null {
  return oauthGrantStands(store, p) === false ? jsonResponse(401, { error: "invalid oauth token", reason: "grant_revoked" }) : null;
}
