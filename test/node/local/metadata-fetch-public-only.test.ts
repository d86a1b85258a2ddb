// serve over http fetches a Client ID Metadata Document only from addresses that resolve public: the check is on
// the resolved address the connection uses, not on the name, so a name pointing at loopback or a private network
// is refused before any connection is made.
import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { metadataDocumentFetcher } from "../../../src/oauth/http/metadata-document-fetch.js";
import { isPublicAddress, publicOnlyFetch } from "../../../local-stdio/src/serve/public-fetch.js";

describe("the Node host's metadata-document fetch", () => {
  it("refuses a name that resolves to loopback, with the address it resolved to", async () => {
    // A listener is there, so only the address check stands between the fetch and it.
    const server = createServer((_, res) => res.end("{}"));
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    try {
      const port = (server.address() as AddressInfo).port;
      const got = await metadataDocumentFetcher(publicOnlyFetch)(`https://localhost:${port}/client.json`);
      expect(got).toEqual({ ok: false, why: expect.stringMatching(/localhost resolves to (127\.0\.0\.1|::1), not a public address/) });
    } finally {
      server.close();
    }
  });

  it.each([
    ["127.0.0.1", 4], ["10.1.2.3", 4], ["172.16.0.1", 4], ["192.168.1.1", 4], ["169.254.169.254", 4], ["100.64.0.1", 4], ["0.0.0.0", 4], ["224.0.0.1", 4],
    ["::1", 6], ["::", 6], ["fc00::1", 6], ["fe80::1", 6], ["::ffff:127.0.0.1", 6], ["64:ff9b::a00:1", 6],
  ])("%s is not public", (address, family) => {
    expect(isPublicAddress(address, family)).toBe(false);
  });

  it.each([["93.184.215.14", 4], ["1.1.1.1", 4], ["2606:4700:4700::1111", 6]])("%s is public", (address, family) => {
    expect(isPublicAddress(address, family)).toBe(true);
  });
});
