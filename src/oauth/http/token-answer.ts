// The token endpoint's success: an access token signed by the motebit's key and the refresh token that goes with it
// (none for client_credentials).
import type { CallerTrust } from "../../principal.js";
import { jsonResponse } from "../../server/responses.js";
import { mintAccessToken } from "../access-token.js";
import type { OAuthContext } from "./context.js";

/** What an access token is minted for: its grant, client, trust, scopes and resource. */
export interface GrantFacts {
  grantId: string;
  clientId: string;
  trust: CallerTrust;
  /** Canonical; the grant's, or fewer on a refresh that narrowed them. */
  scope: string;
  resource: string;
  /** The DPoP key the token request proved (RFC 9449 §5): the access token is bound to it (cnf.jkt) and typed DPoP. */
  jkt?: string | null;
}

/** The access token minted at `issuedAt` (the same token for the same grant and time) and `refresh`, if any. */
export async function tokenAnswer(ctx: OAuthContext, g: GrantFacts, refresh: string | null, issuedAt: number, now: number): Promise<Response> {
  const jkt = g.jkt ?? null;
  const access = await mintAccessToken({ sub: ctx.motebitId, aud: g.resource, cid: g.clientId, gid: g.grantId, trust: g.trust, scope: g.scope, ...(jkt !== null && { cnf: { jkt } }) }, issuedAt, ctx.signer);
  const expiresIn = Math.max(1, access.expiresIn - Math.floor((now - issuedAt) / 1000));
  const answer = { access_token: access.token, token_type: jkt !== null ? "DPoP" : "Bearer", expires_in: expiresIn, ...(refresh === null ? {} : { refresh_token: refresh }), scope: g.scope };
  return jsonResponse(200, answer, { "Cache-Control": "no-store", Pragma: "no-cache" });
}
