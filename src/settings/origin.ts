// Origin checks against DNS rebinding and cross-site calls: a browser page may reach /mcp only from an
// origin the operator allows. Requests without an Origin header (agents, curl, the relay) are not browsers.

const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** "https://Example.com:443/" → "https://example.com"; null when it is not an http(s) origin. */
export function normaliseOrigin(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null;
  if (url.username || url.password || url.search || url.hash || (url.pathname !== "/" && url.pathname !== "")) return null;
  return url.origin;
}

/**
 * Allowed: the server's own origin, any loopback origin (http(s)://localhost|127.0.0.1|[::1], any port),
 * and the configured list. Anything else — including the opaque "null" origin — is foreign.
 *
 * The server's own origin comes from the request URL, i.e. from the Host header. Over plain http that header
 * is the attacker's to choose (DNS rebinding: evil.example resolving to 127.0.0.1 makes Origin and Host both
 * evil.example), so it only counts over https, where the name was proven by TLS — as at a deployed Worker.
 */
export function isAllowedOrigin(origin: string, serverOrigin: string, allowed: readonly string[]): boolean {
  const o = normaliseOrigin(origin);
  if (o === null) return false;
  if (allowed.includes(o)) return true;
  if (o === serverOrigin && serverOrigin.startsWith("https:")) return true;
  return LOOPBACK_HOSTS.has(new URL(o).hostname);
}
