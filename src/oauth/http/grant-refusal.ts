// Admission of an OAuth caller where the grants are: the Worker checked the access token's signature, this checks
// that its grant still stands (the one rule, ../standing.ts), before the request touches anything (a revoked client
// is refused at once).
import type { Principal } from "../../principal.js";
import { jsonResponse } from "../../server/responses.js";
import { oauthGrantStands } from "../standing.js";
import type { OAuthStore } from "../store.js";
import { count } from "../../telemetry/instruments.js";
import type { TelemetryPort } from "../../telemetry/port.js";

/** `telemetry`: where the refusal is counted (kind grant_revoked), when the operator measures. */
export function revokedGrantRefusal(store: OAuthStore, p: Principal, telemetry: TelemetryPort | null = null): Response | null {
  if (oauthGrantStands(store, p) !== false) return null;
  count(telemetry, (i) => i.refusals, 1, { "motebit.refusal.kind": "grant_revoked" });
  return jsonResponse(401, { error: "invalid oauth token", reason: "grant_revoked" });
}
