import { BoundedCache } from "../bounded/bounded-cache.js";
import { bytesToHex, hexToBytes } from "./bytes.js";

const ids = new BoundedCache<Promise<string>>(512);

/**
 * The sovereign motebit_id of a key (docs/protocol.md §1): the first 16 bytes of SHA-256(pub32) with UUID version
 * and variant bits set, as a hyphenated lowercase UUID. Anyone can check that such an id commits to a key.
 */
export async function sovereignMotebitId(pubHex: string): Promise<string> {
  const bytes = hexToBytes(pubHex, 32); // throws before anything is cached
  const cacheKey = bytesToHex(bytes);
  let p = ids.get(cacheKey);
  if (!p) {
    p = computeId(bytes);
    ids.set(cacheKey, p);
  }
  return p;
}

async function computeId(pub: Uint8Array<ArrayBuffer>): Promise<string> {
  const h = new Uint8Array(await crypto.subtle.digest("SHA-256", pub));
  const b = h.slice(0, 16);
  b[6] = 0x80 | (b[6] & 0x0f);
  b[8] = 0x80 | (b[8] & 0x3f);
  const hex = bytesToHex(b);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** True when `id` is exactly the sovereign id of the key; false for anything else, bad input included. */
export async function isSovereignIdFor(id: string, pubHex: string): Promise<boolean> {
  if (typeof id !== "string" || id.length !== 36) return false;
  try {
    return id === (await sovereignMotebitId(pubHex));
  } catch {
    return false;
  }
}

/** Does the id have the sovereign shape (UUID version 8, RFC variant)? Such an id claims to commit to a key. */
export function looksSovereign(id: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/.test(id);
}
