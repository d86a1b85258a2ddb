// DPoP's refusals as HTTP answers: at /mcp a 401 with the DPoP challenge (the app adds Bearer's beside it, routes.ts);
// at the token endpoint a 400 in RFC 6749's error shape (RFC 9449 §5, §8). A nonce refusal hands out the nonce.
import { jsonResponse } from "../../server/responses.js";
import { dpopChallenge, dpopErrorOf, dpopHint, type DpopRefusalReason } from "../dpop/challenge.js";
import { tokenError } from "./answers.js";

export const DPOP_NONCE_HEADER = "DPoP-Nonce";

/** 401 at the resource: the JSON body every auth refusal has (error, reason, hint) and the DPoP challenge. */
export function dpopResourceRefusal(reason: DpopRefusalReason, nonce?: string): Response {
  const error = dpopErrorOf(reason);
  const headers: Record<string, string> = { "WWW-Authenticate": dpopChallenge(error, dpopHint(reason)) };
  if (nonce !== undefined) headers[DPOP_NONCE_HEADER] = nonce;
  return jsonResponse(401, { error: error === "invalid_token" ? "invalid oauth token" : "invalid dpop proof", reason, hint: dpopHint(reason) }, headers);
}

/** 400 at the token endpoint: invalid_dpop_proof, or use_dpop_nonce with the nonce to use. */
export function dpopTokenRefusal(reason: DpopRefusalReason, nonce?: string): Response {
  const res = tokenError(400, dpopErrorOf(reason), dpopHint(reason));
  if (nonce !== undefined) res.headers.set(DPOP_NONCE_HEADER, nonce);
  return res;
}
