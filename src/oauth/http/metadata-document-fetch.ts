// Fetching a Client ID Metadata Document: a stranger's URL, so no redirects, bounded in time and size.
import { fromUtf8 } from "../../protocol/index.js";
import { readBodyCapped } from "../../server/body.js";
import { documentFreshForMs } from "./document-freshness.js";

export const MAX_DOCUMENT_BYTES = 64 * 1024;
export const DOCUMENT_TIMEOUT_MS = 5_000;

/**
 * Fetches a Client ID Metadata Document: the parsed JSON and how long it may be used (from its Cache-Control;
 * absent: document-freshness.ts's default), or a reason it could not be had.
 */
export type FetchClientMetadata = (url: string) => Promise<{ ok: true; document: unknown; freshForMs?: number } | { ok: false; why: string }>;

/**
 * Client ID Metadata Documents fetched with `fetchImpl`. The host says where a fetch may go: in Node, only to
 * addresses that resolve public (local-stdio/src/serve/public-fetch.ts); at the edge the Worker's own fetch, which
 * Cloudflare does not let reach private addresses.
 */
export function metadataDocumentFetcher(fetchImpl: typeof fetch): FetchClientMetadata {
  return async (url) => {
    try {
      const res = await fetchImpl(url, { redirect: "manual", headers: { Accept: "application/json" }, signal: AbortSignal.timeout(DOCUMENT_TIMEOUT_MS) });
      if (res.status !== 200) {
        await res.body?.cancel();
        return { ok: false, why: `HTTP ${res.status}` };
      }
      const read = await readBodyCapped(res.body, MAX_DOCUMENT_BYTES);
      if (!read.ok) return { ok: false, why: `larger than ${MAX_DOCUMENT_BYTES} bytes` };
      return { ok: true, document: JSON.parse(fromUtf8(read.bytes)), freshForMs: documentFreshForMs(res.headers.get("Cache-Control")) };
    } catch (e) {
      return { ok: false, why: (e as Error)?.message ?? "fetch failed" };
    }
  };
}
