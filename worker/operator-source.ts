// Whom a failed operator token at /fleet/ is counted against (src/fleet/operator-attempts.ts). CF-Connecting-IP is
// Cloudflare's to set only at a deployed Worker, which clients reach over https; under `wrangler dev` (plain http on
// this machine) the request passes the caller's own CF-Connecting-IP through, so a guesser could name a fresh source
// on every try. There every caller shares one bucket: they are all on this machine (or wherever --ip exposed it).

export const LOCAL_SOURCE = "local";

export function operatorSource(request: Request): string {
  if (new URL(request.url).protocol !== "https:") return LOCAL_SOURCE;
  return request.headers.get("CF-Connecting-IP") ?? "unknown";
}
