// The owner's approval of a keyed agent (the signed `allow` command; a fleet motebit's operator's equivalent): the
// client's metadata document must publish its keys, and the grant made for it lets it use client_credentials with
// the trust and scopes named (none named: all four, as before scopes), until revoked (it shows in the owner's list and ends with revoke, as any grant).
import type { CallerTrust } from "../../principal.js";
import { OAUTH_SCOPES, parseScope } from "../../policy/admission/oauth-scopes.js";
import { APPROVABLE_TRUST } from "../approval.js";
import type { OAuthContext } from "./context.js";

export type KeyedClientApproval = { ok: true; value: { approved: string; trust: CallerTrust; scope: string; grant: string } } | { ok: false; status: 400; error: string };

/** `scopeText`: space-separated scopes, canonicalized here; absent means all four. */
export async function approveKeyedClient(
  ctx: OAuthContext, clientId: string, trustText: string, scopeText: string | undefined, resource: string, source: string,
): Promise<KeyedClientApproval> {
  const trust = APPROVABLE_TRUST.find((t) => t === trustText);
  if (trust === undefined) return { ok: false, status: 400, error: `trust must be one of ${APPROVABLE_TRUST.join(", ")}` };
  const scope = parseScope(scopeText);
  if (scope === null) return { ok: false, status: 400, error: `scope must be space-separated scopes of ${OAUTH_SCOPES.join(", ")}` };
  const resolved = await ctx.clients.resolve(clientId, source);
  if (!resolved.ok) return { ok: false, status: 400, error: `this client cannot be approved: ${resolved.why}` };
  if (resolved.client.keys === undefined) {
    return { ok: false, status: 400, error: 'this client\'s metadata document names no keys: a client that signs in without a browser needs token_endpoint_auth_method "private_key_jwt" and jwks' };
  }
  const grant = crypto.randomUUID();
  ctx.store.approveKeyedClient(grant, clientId, trust, scope, resource, ctx.clock.now());
  return { ok: true, value: { approved: clientId, trust, scope, grant } };
}
