// The two public metadata documents: RFC 9728 protected-resource metadata (what the MCP client reads after a 401)
// and RFC 8414 authorization-server metadata (where to register, authorize and redeem). Both depend only on the URL.
import { OAUTH_SCOPES } from "../policy/admission/oauth-scopes.js";
import { CLIENT_ASSERTION_ALGS } from "./client-auth/client-assertion.js";
import type { OAuthUrls } from "./urls.js";
import { DPOP_ALGS } from "./dpop/algorithms.js";

export function protectedResourceMetadata(u: OAuthUrls) {
  return {
    resource: u.resource,
    authorization_servers: [u.issuer],
    bearer_methods_supported: ["header"],
    scopes_supported: [...OAUTH_SCOPES],
    resource_name: "motebit",
  };
}

export function authorizationServerMetadata(u: OAuthUrls) {
  return {
    issuer: u.issuer,
    authorization_endpoint: u.authorize,
    token_endpoint: u.token,
    // A client names itself by its Client ID Metadata Document URL (MCP 2026-07-28); registration is for older clients.
    client_id_metadata_document_supported: true,
    registration_endpoint: u.register,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    // client_credentials: a keyed agent the owner allowed, with no browser.
    grant_types_supported: ["authorization_code", "refresh_token", "client_credentials"],
    // PKCE S256 only: "plain" would let a stolen code be redeemed by whoever saw the authorization request.
    code_challenge_methods_supported: ["S256"],
    // No secrets: a desktop or browser host is a public client (PKCE binds the code); a keyed agent signs a
    // private_key_jwt assertion with a key its metadata document publishes.
    token_endpoint_auth_methods_supported: ["none", "private_key_jwt"],
    token_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGS],
    revocation_endpoint: u.revocation,
    revocation_endpoint_auth_methods_supported: ["none", "private_key_jwt"],
    revocation_endpoint_auth_signing_alg_values_supported: [...CLIENT_ASSERTION_ALGS],
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
  };
}
