// Where one motebit's OAuth pieces live. Each motebit is its own protected resource (its /mcp) and its own
// authorization server (issuer = the motebit's base URL), so a token one motebit issued names only that motebit.
// Every path comes from the one table (paths.ts).
import { AS_METADATA_SUFFIX, OAUTH_ENDPOINTS, RESOURCE_METADATA_SUFFIX } from "./paths.js";

export interface OAuthUrls {
  /** The authorization server's issuer: the origin plus the motebit's path prefix ("" or "/m/<name>"). */
  issuer: string;
  /** The protected resource: the motebit's MCP endpoint. */
  resource: string;
  resourceMetadata: string;
  authorizationServerMetadata: string;
  authorize: string;
  token: string;
  register: string;
  revocation: string;
}


/**
 * `base` the motebit's trusted base URL (an origin, or an origin and path for a deployment behind one; never the
 * caller's Host: src/oauth/http/public-base.ts); `prefix` the motebit's path ("" for the deployment's own).
 */
export function oauthUrls(base: string, prefix: string): OAuthUrls {
  const { origin, pathname } = new URL(base);
  const path = pathname.replace(/\/+$/, "") + prefix;
  const issuer = origin + path;
  return {
    issuer,
    resource: `${issuer}/mcp`,
    resourceMetadata: `${origin}${RESOURCE_METADATA_SUFFIX}${path}/mcp`,
    authorizationServerMetadata: `${origin}${AS_METADATA_SUFFIX}${path}`,
    authorize: issuer + OAUTH_ENDPOINTS.authorize.path,
    token: issuer + OAUTH_ENDPOINTS.token.path,
    register: issuer + OAUTH_ENDPOINTS.register.path,
    revocation: issuer + OAUTH_ENDPOINTS.revoke.path,
  };
}
