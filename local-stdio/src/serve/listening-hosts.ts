// The host:port names a request may use to reach this server, so its OAuth URLs may be built on them
// (src/oauth/http/public-base.ts): the bound address, and for a loopback or wildcard bind the loopback names; for a
// wildcard bind, every address of this machine's interfaces. Anything else in Host is the caller's invention.
import { networkInterfaces } from "node:os";

const LOOPBACK = ["localhost", "127.0.0.1", "::1"];
const WILDCARD = ["0.0.0.0", "::", ""];

export function listeningHosts(bind: string, port: number): string[] {
  const names = new Set<string>();
  if (WILDCARD.includes(bind)) {
    for (const n of LOOPBACK) names.add(n);
    for (const list of Object.values(networkInterfaces())) for (const a of list ?? []) names.add(a.address.replace(/%.*$/, ""));
  } else {
    names.add(bind);
    if (LOOPBACK.includes(bind.toLowerCase())) for (const n of LOOPBACK) names.add(n);
  }
  const hosts: string[] = [];
  for (const n of names) {
    try {
      hosts.push(new URL(`http://${n.includes(":") ? `[${n}]` : n}:${port}`).host);
    } catch {
      // A name no URL can carry cannot be in a request's Host either.
    }
  }
  return hosts;
}
