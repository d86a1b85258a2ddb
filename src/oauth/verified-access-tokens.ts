// An OAuth access token is a bearer token a host sends on every request for its five minutes, so the same string
// reaches the Worker again and again: its signature is checked once and the payload remembered, keyed by the motebit's
// key and the whole envelope. Only what verified is kept, so nothing a caller makes up enters; expiry, subject and
// the grant's standing are still checked on every request by the callers (access-token.ts, the object's store).
import { BoundedCache } from "../bounded/bounded-cache.js";
import type { VerifySignature } from "../protocol/index.js";
import { openEnvelope } from "./signed-envelope.js";

/** A few hundred hosts' tokens at once; an access token is a few hundred bytes. */
const verified = new BoundedCache<Record<string, unknown>>(256);

/** openEnvelope for the envelope of an access token, its signature checked once per key and envelope; the payload is frozen, as it is shared. */
export async function openAccessEnvelope(
  context: string,
  envelope: string,
  publicKeyHex: string,
  verify?: VerifySignature,
): Promise<Record<string, unknown> | null> {
  const key = `${publicKeyHex} ${context} ${envelope}`;
  const known = verified.get(key);
  if (known !== undefined) return known;
  const payload = await openEnvelope(context, envelope, publicKeyHex, verify);
  if (payload !== null) verified.set(key, Object.freeze(payload));
  return payload;
}
