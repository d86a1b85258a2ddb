// The Node host's fetch of Client ID Metadata Documents: a stranger names the URL, and the fetch runs inside the
// owner's network, so it may only reach public addresses. The check is on the addresses the name resolved to, in
// the lookup the connection itself uses, so a name that resolves public once and private the next time (DNS
// rebinding) cannot slip past: there is no second resolution.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request } from "node:https";
import { BlockList } from "node:net";
import { Readable } from "node:stream";

/**
 * Loopback, private, link-local, shared, documentation, multicast and reserved ranges (IANA special-purpose
 * registries). BlockList checks an IPv4-mapped IPv6 address (::ffff:10.0.0.1) against the IPv4 ranges itself.
 */
const NOT_PUBLIC = new BlockList();
for (const [net, bits] of [
  ["0.0.0.0", 8], ["10.0.0.0", 8], ["100.64.0.0", 10], ["127.0.0.0", 8], ["169.254.0.0", 16], ["172.16.0.0", 12], ["192.0.0.0", 24],
  ["192.0.2.0", 24], ["192.88.99.0", 24], ["192.168.0.0", 16], ["198.18.0.0", 15], ["198.51.100.0", 24], ["203.0.113.0", 24], ["224.0.0.0", 3],
] as const) NOT_PUBLIC.addSubnet(net, bits, "ipv4");
for (const [net, bits] of [
  ["::", 127], ["64:ff9b::", 96], ["64:ff9b:1::", 48], ["100::", 64], ["2001::", 23], ["2001:db8::", 32], ["2002::", 16],
  ["fc00::", 7], ["fe80::", 10], ["fec0::", 10], ["ff00::", 8],
] as const) NOT_PUBLIC.addSubnet(net, bits, "ipv6");

export function isPublicAddress(address: string, family: number): boolean {
  return !NOT_PUBLIC.check(address, family === 6 ? "ipv6" : "ipv4");
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** Loopback: what localHttpsFetch adds to the public addresses (and nothing else private). */
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** dns.lookup that fails unless every address the name has passes `allowed`. */
function checkedLookup(allowed: (a: LookupAddress) => boolean, what: string) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
      if (err) return callback(err, "");
      const refused = addresses.find((a) => !allowed(a));
      if (refused !== undefined || addresses.length === 0) {
        const e: NodeJS.ErrnoException = new Error(`${hostname} resolves to ${refused?.address ?? "nothing"}, not ${what}`);
        e.code = "ENOTPUBLIC";
        return callback(e, "");
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };
}

const isPublic = (a: LookupAddress) => isPublicAddress(a.address, a.family);

/** A GET over https through `lookup`, as a fetch (headers and signal honoured; redirects are never followed). */
function httpsGetFetch(lookup: ReturnType<typeof checkedLookup>, ca?: string): typeof fetch {
  return ((input: string | URL | Request, init: RequestInit = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : input);
      if (url.protocol !== "https:") return reject(new Error("only https is fetched"));
      const options = { method: "GET", headers: Object.fromEntries(new Headers(init.headers)), lookup: lookup as never, signal: init.signal ?? undefined, ...(ca === undefined ? {} : { ca }) };
      const req = request(url, options, (res) => {
        const headers = new Headers();
        for (const [k, v] of Object.entries(res.headers)) if (typeof v === "string") headers.set(k, v);
        resolve(new Response(Readable.toWeb(res) as ReadableStream<Uint8Array>, { status: res.statusCode ?? 502, headers }));
      });
      req.once("error", reject);
      req.end();
    })) as typeof fetch;
}

/** A GET over https to public addresses only: what `serve --http` fetches metadata documents with. */
export const publicOnlyFetch = httpsGetFetch(checkedLookup(isPublic, "a public address"));

/**
 * Tests only: public addresses and loopback, trusting `ca` (a test's own CA, PEM) instead of the system's, so a
 * test can serve a metadata document at https://localhost:<port>/… (with loopbackMetadataDocuments on the backend).
 */
export function localHttpsFetch(ca: string): typeof fetch {
  return httpsGetFetch(checkedLookup((a) => isPublic(a) || LOOPBACK.check(a.address, a.family === 6 ? "ipv6" : "ipv4"), "a public or loopback address"), ca);
}
