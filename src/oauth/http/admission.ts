// Admission of an OAuth caller where the grants are: the Worker checked the access token's signature, this checks
// that its grant still stands, before the request touches anything (a revoked client is refused at once).
import type { Principal } from "../../principal.js";
import type { OAuthStore } from "../store.js";
import { jsonResponse } from "../../server/responses.js";

export function revokedGrantRefusal(store: OAuthStore, p: Principal): Response | null {
  if (p.kind !== "peer" || p.via !== "oauth") return null;
  if (p.grant !== undefined && store.isLive(p.grant)) return null;
  return jsonResponse(401, { error: "invalid oauth token", reason: "grant_revoked" });
}
