// Who a client is: its RFC 7591 registration, or its Client ID Metadata Document (client_id is an https URL whose
// document names its redirect URIs). Both come from strangers, so every field is checked and capped here.
import { checkClientKeys, type ClientKey } from "./client-auth/client-keys.js";

export interface ClientMetadata {
  name: string;
  /** Empty for a keyed client that only uses client_credentials (no browser, nothing redirected). */
  redirectUris: string[];
  /** A keyed client's public keys (private_key_jwt, metadata documents only); absent for a public client. */
  keys?: ClientKey[];
  /** Where a keyed client publishes its keys when its document does not carry them: the resolver fetches them into `keys`. */
  jwksUri?: string;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: "invalid_client_metadata" | "invalid_redirect_uri"; why: string };

const MAX_REDIRECT_URIS = 10;
const MAX_URI_CHARS = 2000;
const MAX_NAME_CHARS = 200;
/** Schemes that are a browser's own pages, script, or another protocol: no OAuth client receives a code there. */
const FORBIDDEN_SCHEMES = [
  "javascript:", "data:", "file:", "about:", "blob:", "vbscript:", "filesystem:", "view-source:", "chrome:", "chrome-untrusted:",
  "edge:", "opera:", "brave:", "ws:", "wss:", "ftp:",
];
const LOOPBACK_HOSTS = ["localhost", "127.0.0.1", "[::1]"];

function bad(error: "invalid_client_metadata" | "invalid_redirect_uri", why: string): Checked<never> {
  return { ok: false, error, why };
}

/**
 * A redirect URI a client may register: https, http on loopback only (any port, RFC 8252 §7.3), or an app's own
 * scheme (cursor://…, vscode://…, com.example.app:/cb, RFC 8252 §7.1); written plainly, with no fragment.
 */
export function redirectUriProblem(uri: unknown): string | null {
  if (typeof uri !== "string" || uri.length === 0 || uri.length > MAX_URI_CHARS) return "a redirect URI must be a string of 1 to 2000 characters";
  // The URL parser drops tabs and newlines and trims spaces, so what was registered and where the code goes differ.
  if (/[\p{C}\p{Z}\s]/u.test(uri)) return "a redirect URI must not contain control characters, whitespace or invisible characters";
  // "https:evil.example/cb" parses as https://evil.example/cb: only the hierarchical form is accepted as written.
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(uri)?.[1].toLowerCase();
  if (scheme === undefined) return `${JSON.stringify(uri.slice(0, 100))} is not an absolute URI`;
  const hierarchical = scheme === "http" || scheme === "https" ? uri.slice(scheme.length + 1).startsWith("//") : uri.charAt(scheme.length + 1) === "/";
  if (!hierarchical) return `a redirect URI must be written ${scheme === "http" || scheme === "https" ? `${scheme}://host/path` : `${scheme}://… or ${scheme}:/path`}`;
  let u: URL;
  try {
    u = new URL(uri);
  } catch {
    return `${JSON.stringify(uri.slice(0, 100))} is not an absolute URI`;
  }
  if (u.hash !== "" || uri.includes("#")) return "a redirect URI must not have a fragment";
  if (FORBIDDEN_SCHEMES.includes(u.protocol)) return `the ${u.protocol} scheme cannot be a redirect URI`;
  if (u.protocol === "http:" && !LOOPBACK_HOSTS.includes(u.hostname)) return "http redirect URIs must be on loopback (localhost, 127.0.0.1, [::1]); use https";
  if (u.username !== "" || u.password !== "") return "a redirect URI must not carry credentials";
  return null;
}

/** The registered URI `requested` matches: the same string, or on a loopback IP any port (OAuth 2.1 §8.4.2, RFC 8252 §7.3). */
export function matchesRedirectUri(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  let r: URL;
  try {
    r = new URL(requested);
  } catch {
    return false;
  }
  if (r.protocol !== "http:" || (r.hostname !== "127.0.0.1" && r.hostname !== "[::1]")) return false;
  // Only the port may differ: not userinfo, a fragment, or anything the parser would quietly fix up.
  if (redirectUriProblem(requested) !== null) return false;
  return registered.some((uri) => {
    try {
      const u = new URL(uri);
      return u.protocol === "http:" && u.hostname === r.hostname && u.pathname === r.pathname && u.search === r.search;
    } catch {
      return false;
    }
  });
}

/**
 * The fields of a registration request or metadata document that this server uses, checked. `keyed`: a metadata
 * document may name private_key_jwt with its `jwks` (or `jwks_uri`), and then client_credentials without redirect URIs; a
 * registration may not (it has no key this server could trust).
 */
export function checkClientMetadata(body: unknown, keyed = false): Checked<ClientMetadata> {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return bad("invalid_client_metadata", "client metadata must be a JSON object");
  const m = body as Record<string, unknown>;
  const auth = m.token_endpoint_auth_method;
  const withKey = keyed && auth === "private_key_jwt";
  if (auth !== undefined && auth !== "none" && !withKey) {
    return bad("invalid_client_metadata", keyed
      ? 'token_endpoint_auth_method must be "none" (a public client, PKCE binds the code) or "private_key_jwt" (with jwks)'
      : 'token_endpoint_auth_method must be "none": this server has public clients only (PKCE binds the code)');
  }
  const grants = m.grant_types === undefined ? ["authorization_code"] : m.grant_types;
  const browser = Array.isArray(grants) && grants.includes("authorization_code");
  if (!browser && !(withKey && Array.isArray(grants) && grants.includes("client_credentials"))) {
    return bad("invalid_client_metadata", withKey ? "grant_types must include authorization_code or client_credentials" : "grant_types must include authorization_code");
  }
  const uris = m.redirect_uris ?? (browser ? undefined : []);
  if (!Array.isArray(uris) || (browser && uris.length === 0) || uris.length > MAX_REDIRECT_URIS) {
    return bad("invalid_redirect_uri", `redirect_uris must be an array of 1 to ${MAX_REDIRECT_URIS} URIs`);
  }
  for (const uri of uris) {
    const problem = redirectUriProblem(uri);
    if (problem !== null) return bad("invalid_redirect_uri", problem);
  }
  if (m.response_types !== undefined && browser && !(Array.isArray(m.response_types) && m.response_types.includes("code"))) {
    return bad("invalid_client_metadata", "response_types must include code");
  }
  const name = m.client_name === undefined ? "unnamed client" : m.client_name;
  if (typeof name !== "string" || name.trim() === "" || name.length > MAX_NAME_CHARS) return bad("invalid_client_metadata", `client_name must be 1 to ${MAX_NAME_CHARS} characters`);
  const value: ClientMetadata = { name: name.trim(), redirectUris: uris as string[] };
  if (!withKey) return { ok: true, value };
  // RFC 7591 §2: one or the other, never both.
  if (m.jwks !== undefined && m.jwks_uri !== undefined) return bad("invalid_client_metadata", "jwks and jwks_uri must not both be given");
  if (m.jwks_uri !== undefined) {
    return typeof m.jwks_uri === "string" && m.jwks_uri.length <= MAX_URI_CHARS ? { ok: true, value: { ...value, jwksUri: m.jwks_uri } } : bad("invalid_client_metadata", "jwks_uri must be an https URL");
  }
  const keys = checkClientKeys(m.jwks);
  return keys.ok ? { ok: true, value: { ...value, keys: keys.keys } } : bad("invalid_client_metadata", keys.why);
}

/**
 * Whether `clientId` is a Client ID Metadata Document URL this server will fetch: https, a path, no fragment,
 * credentials or dot segments, and a host name (not an IP literal or localhost: the fetch runs inside our network).
 * `loopback` (tests only) lets https://localhost:<port>/… through as well.
 */
export function isMetadataDocumentUrl(clientId: string, loopback = false): boolean {
  if (clientId.length > MAX_URI_CHARS || !clientId.startsWith("https://")) return false;
  let u: URL;
  try {
    u = new URL(clientId);
  } catch {
    return false;
  }
  if (u.href !== clientId || u.pathname === "/" || u.hash !== "" || u.username !== "" || u.password !== "") return false;
  if (/(^|\/)\.\.?(\/|$)/.test(u.pathname)) return false;
  const host = u.hostname;
  if (loopback && host === "localhost") return true;
  if (host === "localhost" || host.endsWith(".localhost") || host.startsWith("[") || /^[\d.]+$/.test(host) || !host.includes(".")) return false;
  return true;
}

/** A fetched metadata document: it must name itself as the client_id it was fetched for. */
export function checkMetadataDocument(clientId: string, doc: unknown): Checked<ClientMetadata> {
  if (typeof doc === "object" && doc !== null && (doc as Record<string, unknown>).client_id !== clientId) {
    return bad("invalid_client_metadata", "the metadata document's client_id is not the URL it was fetched from");
  }
  return checkClientMetadata(doc, true);
}
