// How long a fetched Client ID Metadata Document is used before it is fetched again: as its Cache-Control says,
// within bounds. A client may rotate its keys or redirect URIs; it says how soon we must notice, but neither a
// document that asks to be fetched every second (max-age=0: the floor) nor one kept for a week (the cap).

/** Without Cache-Control (or without max-age in it). */
export const DOCUMENT_DEFAULT_FRESH_MS = 5 * 60_000;
export const DOCUMENT_MIN_FRESH_MS = 60_000;
export const DOCUMENT_MAX_FRESH_MS = 24 * 60 * 60_000;

/** 0: not kept at all (no-store, no-cache); else how long the document stays fresh. */
export function documentFreshForMs(cacheControl: string | null): number {
  if (cacheControl === null) return DOCUMENT_DEFAULT_FRESH_MS;
  const directives = cacheControl.toLowerCase().split(",").map((d) => d.trim());
  if (directives.some((d) => d === "no-store" || d === "no-cache")) return 0;
  const maxAge = directives.map((d) => /^max-age\s*=\s*"?(\d{1,10})"?$/.exec(d)?.[1]).find((v) => v !== undefined);
  if (maxAge === undefined) return DOCUMENT_DEFAULT_FRESH_MS;
  return Math.min(DOCUMENT_MAX_FRESH_MS, Math.max(DOCUMENT_MIN_FRESH_MS, Number(maxAge) * 1000));
}
