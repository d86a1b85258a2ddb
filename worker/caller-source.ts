// The caller's address at the edge. Cloudflare sets CF-Connecting-IP on every request it passes to a deployed Worker
// (reached over https) and replaces any value the client sent, so there a caller cannot choose it. Under
// `wrangler dev` (plain http on this machine) the request keeps a CF-Connecting-IP the caller sent and only
// otherwise gets the socket's address.
import { headerSource } from "../src/index.js";

/**
 * The source the OAuth endpoints' and failed authentication's per-source limits key on. Under wrangler dev a local
 * caller could name itself afresh, which only lets it escape its own bucket: the stored rows stay capped in all.
 * The core's rule, so the app reads it without calling back into worker/.
 */
export const callerSource = headerSource("CF-Connecting-IP");

export const LOCAL_SOURCE = "local";

/**
 * Whom a failed operator token at /fleet/ is counted against (src/fleet/operator-attempts.ts). A guesser who could
 * name a fresh source on every try would never be slowed, so over plain http every caller shares one bucket: they
 * are all on this machine (or wherever --ip exposed it).
 */
export function operatorSource(request: Request): string {
  if (new URL(request.url).protocol !== "https:") return LOCAL_SOURCE;
  return callerSource(request) ?? "unknown";
}
