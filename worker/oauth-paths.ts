// RFC 9728 and RFC 8414 put the well-known suffix before the path, so a fleet motebit's metadata lives at
// /.well-known/oauth-protected-resource/m/<name>/mcp and /.well-known/oauth-authorization-server/m/<name>.
// Those are moved under the motebit's own prefix (/m/<name>/.well-known/…), where its app answers them.
import { FLEET_PREFIX, OAUTH_WELL_KNOWN_SUFFIXES } from "../src/index.js";

const FLEET_WELL_KNOWN = new RegExp(`^(${OAUTH_WELL_KNOWN_SUFFIXES.map((s) => s.replace(/\./g, "\\.")).join("|")})(${FLEET_PREFIX}[^/]+)(/.*)?$`);

export function withFleetWellKnown(request: Request): Request {
  const url = new URL(request.url);
  const m = FLEET_WELL_KNOWN.exec(url.pathname);
  if (m === null) return request;
  url.pathname = `${m[2]}${m[1]}${m[3] ?? ""}`;
  return new Request(url, request);
}
