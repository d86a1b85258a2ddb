// Where this motebit says it lives: the base of its issuer, resource and metadata URLs (and so the audience its
// access tokens must name). Never simply the caller's Host or an absolute-form request target: those are the
// caller's to choose, and a server that echoes them hands out metadata and tokens for a name it does not own.
// Each host says which origins it vouches for; anything else gets no OAuth URLs at all (the routes answer 421).

/** The base URL (origin, plus a path for a deployment behind one) of this request, or null: not one we answer at. */
export type PublicBase = (request: Request) => string | null;

const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);

/**
 * The edge's: `publicUrl` (MOTEBIT_PUBLIC_URL) when set. Without it, the request's origin only where the platform
 * proved the name: https (Cloudflare routes a Worker only the hosts it is deployed on, and TLS proved them) or a
 * loopback host (`wrangler dev` on this machine; a DNS-rebound name such as evil.example is neither).
 */
export function platformPublicBase(publicUrl: string | null): PublicBase {
  if (publicUrl !== null) return () => publicUrl;
  return (request) => {
    const u = new URL(request.url);
    return u.protocol === "https:" || LOOPBACK.has(u.hostname) ? u.origin : null;
  };
}

/**
 * motebit-local's: `publicUrl` when set. Without it, the request's origin only when its host and port are an
 * address this server listens on (`listening`: "127.0.0.1:3100", "localhost:3100", …; the host lowercased, an
 * IPv6 one in brackets) and its scheme is http (the server has no TLS).
 */
export function listeningPublicBase(publicUrl: string | null, listening: readonly string[]): PublicBase {
  if (publicUrl !== null) return () => publicUrl;
  const allowed = new Set(listening);
  return (request) => {
    const u = new URL(request.url);
    return u.protocol === "http:" && allowed.has(u.host) ? u.origin : null;
  };
}
