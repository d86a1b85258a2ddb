// The token endpoint's success: an access token signed by the motebit's key and the refresh token that goes with it
// (none for client_credentials).
import type { CallerTrust } from "../../principal.js";
import { jsonResponse } from "../../server/responses.js";
import { mintAccessToken } from "../access-token.js";
import type { OAuthContext } from "./context.js";

/** What an access token is minted for: its grant, client, trust and resource. */
export interface GrantFacts {
  grantId: string;
  clientId: string;
  trust: CallerTrust;
  resource: string;
}

/** The access token minted at `issuedAt` (the same token for the same grant and time) and `refresh`, if any. */
export async function tokenAnswer(ctx: OAuthContext, g: GrantFacts, refresh: string | null, issuedAt: number, now: number): Promise<Response> {
  const access = await mintAccessToken({ sub: ctx.motebitId, aud: g.resource, cid: g.clientId, gid: g.grantId, trust: g.trust }, issuedAt, ctx.signer);
  const expiresIn = Math.max(1, access.expiresIn - Math.floor((now - issuedAt) / 1000));
  const answer = { access_token: access.token, token_type: "Bearer", expires_in: expiresIn, ...(refresh === null ? {} : { refresh_token: refresh }) };
  return jsonResponse(200, answer, { "Cache-Control": "no-store", Pragma: "no-cache" });
}
