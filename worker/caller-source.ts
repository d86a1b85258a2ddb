// The caller's address at the edge: Cloudflare sets CF-Connecting-IP on every request it passes to a Worker and
// replaces any value the client sent, so a caller cannot choose it. Under wrangler dev nothing guarantees that.
export function callerSource(request: Request): string | undefined {
  return request.headers.get("CF-Connecting-IP") ?? undefined;
}
