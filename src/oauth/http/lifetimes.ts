// How long each thing the authorization server hands out lasts.

/** A consent request waiting for the owner (and its CSRF cookie). */
export const REQUEST_TTL_MS = 10 * 60_000;
/** An authorization code, from the owner's approval to its redemption at /token. */
export const CODE_TTL_MS = 60_000;
export const REFRESH_TTL_MS = 30 * 24 * 60 * 60_000;
/**
 * How long after a refresh token was rotated the same token still gets the same new pair instead of revoking the
 * grant: long enough for a client's parallel refreshes and a retry after a lost answer, short against a thief.
 */
export const REFRESH_REUSE_GRACE_MS = 10_000;
