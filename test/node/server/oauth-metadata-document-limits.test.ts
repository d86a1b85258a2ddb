// The Client ID Metadata Document fetch is bounded (64 KiB, 5 s, no redirects followed) and its answer is kept as
// its Cache-Control says, within a floor and a cap: pinned here against a stand-in for the web.
import { describe, expect, it } from "vitest";
import { DOCUMENT_DEFAULT_FRESH_MS, DOCUMENT_MAX_FRESH_MS, DOCUMENT_MIN_FRESH_MS, documentFreshForMs } from "../../../src/oauth/http/document-freshness.js";
import { DOCUMENT_TIMEOUT_MS, MAX_DOCUMENT_BYTES, metadataDocumentFetcher } from "../../../src/oauth/http/metadata-document-fetch.js";
import { REDIRECT_URI } from "../../shared/oauth-driver.js";
import { fakeClock } from "./fake-clock.js";
import { setup } from "./oauth-setup.js";

const CLIENT = "https://host.example/client.json";
const DOC = { client_id: CLIENT, client_name: "Doc host", redirect_uris: [REDIRECT_URI] };

describe("metadata document fetch limits", () => {
  it("a document up to 64 KiB is read; one byte more is refused", async () => {
    const unpadded = JSON.stringify({ ...DOC, pad: "" }).length;
    /** The document padded to exactly `n` bytes. */
    const body = (n: number) => JSON.stringify({ ...DOC, pad: "x".repeat(n - unpadded) });
    const fetcher = (text: string) => metadataDocumentFetcher((async () => new Response(text)) as typeof fetch);
    expect((await fetcher(body(MAX_DOCUMENT_BYTES))(CLIENT)).ok).toBe(true);
    expect(await fetcher(body(MAX_DOCUMENT_BYTES + 1))(CLIENT)).toEqual({ ok: false, why: `larger than ${MAX_DOCUMENT_BYTES} bytes` });
  });

  it("a redirect is not followed: the fetch asks for manual redirects and a 3xx is refused", async () => {
    let redirect: RequestRedirect | undefined;
    const fetcher = metadataDocumentFetcher((async (_: unknown, init?: RequestInit) => {
      redirect = init?.redirect;
      return new Response(null, { status: 302, headers: { Location: "http://169.254.169.254/" } });
    }) as typeof fetch);
    expect(await fetcher(CLIENT)).toEqual({ ok: false, why: "HTTP 302" });
    expect(redirect).toBe("manual");
  });

  it("a server that never answers is given up after 5 s", async () => {
    const fetcher = metadataDocumentFetcher(((_: unknown, init?: RequestInit) =>
      new Promise((_resolve, reject) => init?.signal?.addEventListener("abort", () => reject(init.signal!.reason)))) as typeof fetch);
    const started = Date.now();
    const got = await fetcher(CLIENT);
    expect(got.ok).toBe(false);
    expect(Date.now() - started).toBeGreaterThanOrEqual(DOCUMENT_TIMEOUT_MS - 50);
    expect(Date.now() - started).toBeLessThan(DOCUMENT_TIMEOUT_MS + 2_000);
  });
});

describe("metadata documents kept by their Cache-Control", () => {
  it.each([
    [null, DOCUMENT_DEFAULT_FRESH_MS],
    ["no-store", 0],
    ["public, no-cache", 0],
    ["max-age=3600", 3_600_000],
    ["public, max-age=0", DOCUMENT_MIN_FRESH_MS],
    ["max-age=31536000", DOCUMENT_MAX_FRESH_MS],
    ["private", DOCUMENT_DEFAULT_FRESH_MS],
  ])("Cache-Control %s → kept %i ms", (header, ms) => {
    expect(documentFreshForMs(header)).toBe(ms);
  });

  async function fetchesOver(cacheControl: string, steps: number[]): Promise<number> {
    const clock = fakeClock();
    let fetches = 0;
    const web = (async () => (fetches++, Response.json(DOC, { headers: { "Cache-Control": cacheControl } }))) as typeof fetch;
    const s = await setup({ clock, fetchClientMetadata: metadataDocumentFetcher(web) });
    const authorize = () => s.fetchFn(s.authorizeUrl({ client_id: CLIENT }).href);
    for (const ms of steps) {
      clock.advance(ms);
      expect((await authorize()).status).toBe(200);
    }
    return fetches;
  }

  it("max-age: fetched again only once it is stale", async () => {
    expect(await fetchesOver("max-age=600", [0, 599_000, 2_000])).toBe(2);
  });

  it("no-store: fetched at every use", async () => {
    expect(await fetchesOver("no-store", [0, 1, 1])).toBe(3);
  });

  it("max-age=0 is held to the floor of a minute", async () => {
    expect(await fetchesOver("max-age=0", [0, 30_000, 31_000])).toBe(2);
  });
});

