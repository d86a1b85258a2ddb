// Who is calling the token (and revocation) endpoint: a public client names itself with client_id (PKCE, or the
// refresh token it holds, is its proof); a keyed client adds a private_key_jwt assertion (RFC 7523 §2.2) signed with
// a key from its Client ID Metadata Document, each assertion good once (its jti in the replay set).
import { CLIENT_ASSERTION_TYPE, checkClientAssertion } from "../client-auth/client-assertion.js";
import type { OAuthUrls } from "../urls.js";
import { tokenError } from "./answers.js";
import type { OAuthContext } from "./context.js";
import type { Form } from "./request-body.js";

/** `keyed`: it proved its key here, so it may use client_credentials. */
export type ClientAuthentication = { ok: true; clientId: string; keyed: boolean } | { ok: false; refusal: Response };

const refuse = (why: string): ClientAuthentication => ({ ok: false, refusal: tokenError(401, "invalid_client", why) });

export async function authenticateClient(ctx: OAuthContext, request: Request, form: Form, urls: OAuthUrls, source: string): Promise<ClientAuthentication> {
  // A secret or Basic credentials name a client this server never made.
  if (request.headers.has("Authorization") || form.has("client_secret")) return refuse("this server takes no client secrets: send client_id (a keyed client adds a private_key_jwt client_assertion)");
  const clientId = form.get("client_id");
  if (clientId === undefined || clientId === "") return refuse("client_id is required");
  const type = form.get("client_assertion_type");
  const assertion = form.get("client_assertion");
  if (type === undefined && assertion === undefined) return { ok: true, clientId, keyed: false };
  if (type !== CLIENT_ASSERTION_TYPE || assertion === undefined) return refuse(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}, with a client_assertion`);
  const resolved = await ctx.clients.resolve(clientId, source);
  if (!resolved.ok) return refuse(`this client cannot be authenticated: ${resolved.why}`);
  if (resolved.client.keys === undefined) return refuse('this client\'s metadata document names no keys: it needs token_endpoint_auth_method "private_key_jwt" and jwks');
  const checked = await checkClientAssertion(assertion, clientId, resolved.client.keys, [urls.issuer, urls.token], ctx.clock.now());
  if (!checked.ok) return refuse(checked.why);
  if (!ctx.replay.consume(`oauth-client-assertion:${clientId}:${checked.jti}`, checked.expiresAt)) return refuse("this client_assertion was already used (its jti)");
  return { ok: true, clientId, keyed: true };
}
