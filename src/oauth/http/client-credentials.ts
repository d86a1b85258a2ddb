// grant_type=client_credentials (RFC 6749 §4.4): a keyed agent, authenticated by its key, gets an access token for
// the grant the owner made it (motebit-local oauth allow; a fleet operator's equivalent). No browser, no refresh
// token: the agent asks again with a fresh assertion (with a DPoP proof, the token is bound to that key). Revoking the client ends that grant as any other.
import type { OAuthUrls } from "../urls.js";
import { tokenError } from "./answers.js";
import type { ClientAuthentication } from "./client-authentication.js";
import type { OAuthContext } from "./context.js";
import { tokenAnswer } from "./token-answer.js";

export async function clientCredentials(ctx: OAuthContext, client: Extract<ClientAuthentication, { ok: true }>, urls: OAuthUrls, jkt: string | null): Promise<Response> {
  if (!client.keyed) return tokenError(401, "invalid_client", "client_credentials needs a keyed client: authenticate with private_key_jwt (client_assertion)");
  const g = ctx.store.keyedGrant(client.clientId, urls.resource);
  if (g === null) {
    return tokenError(400, "unauthorized_client", "the owner has not approved this client for client_credentials (motebit-local oauth allow <client_id>), or revoked it");
  }
  const now = ctx.clock.now();
  return tokenAnswer(ctx, { grantId: g.id, clientId: g.clientId, trust: g.trust, scope: g.scope, resource: g.resource, jkt }, null, now, now);
}
