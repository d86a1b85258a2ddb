// Every path a motebit answers OAuth at, written once. The two metadata documents live at well-known suffixes that
// RFC 9728 §3.1 and RFC 8414 §3.1 put between the host and the motebit's path; the authorization server's endpoints
// live below the motebit's prefix ("" or "/m/<name>"). The HTTP app mounts this table (src/oauth/http/routes.ts),
// the authorization server dispatches on it, the motebit's URLs are built from it (urls.ts), and the Worker moves a
// fleet motebit's well-known paths by it (worker/oauth-paths.ts).

export const RESOURCE_METADATA_SUFFIX = "/.well-known/oauth-protected-resource";
export const AS_METADATA_SUFFIX = "/.well-known/oauth-authorization-server";
export const OAUTH_WELL_KNOWN_SUFFIXES = [RESOURCE_METADATA_SUFFIX, AS_METADATA_SUFFIX] as const;
/** A fleet motebit's prefix is this and its name: its issuer, its endpoints and its metadata paths carry it. */
export const FLEET_PREFIX = "/m/";

export interface OAuthEndpoint {
  path: string;
  methods: readonly string[];
  /** Set when one path segment after `path` is the endpoint's parameter (its name in the mounted route). */
  param?: string;
}

/** The authorization server's endpoints, each with the methods it answers. */
export const OAUTH_ENDPOINTS = {
  /** GET: the consent page; POST: the owner's answer from it. */
  authorize: { path: "/authorize", methods: ["GET", "POST"] },
  token: { path: "/token", methods: ["POST"] },
  register: { path: "/register", methods: ["POST"] },
  /** RFC 7009: a client ends its own grant (signs out). */
  revoke: { path: "/revoke", methods: ["POST"] },
  /** The owner's signed commands (list, revoke). */
  owner: { path: "/oauth/owner", methods: ["POST"] },
  /** What an approver signs for one pending request. */
  requestDetails: { path: "/oauth/requests/", methods: ["GET"], param: "code" },
} as const satisfies Record<string, OAuthEndpoint>;

export type OAuthEndpointName = keyof typeof OAUTH_ENDPOINTS;

/** The table's rows, each with its name. */
export const OAUTH_ENDPOINT_LIST = Object.entries(OAUTH_ENDPOINTS).map(([name, endpoint]) => ({ name, endpoint })) as {
  name: OAuthEndpointName;
  endpoint: OAuthEndpoint;
}[];

/** The endpoint at `path` (below the motebit's prefix) and its parameter ("" without one); null: no endpoint. */
export function oauthEndpointAt(path: string): { name: OAuthEndpointName; endpoint: OAuthEndpoint; param: string } | null {
  for (const { name, endpoint } of OAUTH_ENDPOINT_LIST) {
    if (endpoint.param === undefined ? path === endpoint.path : path.startsWith(endpoint.path)) {
      return { name, endpoint, param: endpoint.param === undefined ? "" : path.slice(endpoint.path.length) };
    }
  }
  return null;
}
