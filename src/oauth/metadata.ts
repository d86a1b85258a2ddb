// The two public metadata documents: RFC 9728 protected-resource metadata (what the MCP client reads after a 401)
// and RFC 8414 authorization-server metadata (where to register, authorize and redeem). Both depend only on the URL.
import { OAUTH_SCOPES } from "../policy/admission/oauth-scopes.js";
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
    registration_endpoint: u.register,
    scopes_supported: [...OAUTH_SCOPES],
    response_types_supported: ["code"],
    response_modes_supported: ["query"],
    grant_types_supported: ["authorization_code", "refresh_token"],
    // PKCE S256 only: "plain" would let a stolen code be redeemed by whoever saw the authorization request.
    code_challenge_methods_supported: ["S256"],
    // Public clients only: a desktop or browser host cannot keep a secret, PKCE binds the code instead.
    token_endpoint_auth_methods_supported: ["none"],
    client_id_metadata_document_supported: true,
    authorization_response_iss_parameter_supported: true,
    dpop_signing_alg_values_supported: [...DPOP_ALGS],
  };
}
