import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8 } from "./bytes.js";

/**
 * Up to this many bytes the digest is computed here, synchronously: WebCrypto's round trip (~25-120 µs of CPU in
 * Node, more under load) costs more than hashing a prompt or a tool result in JS. Past it WebCrypto's native code wins.
 */
export const INLINE_SHA256_MAX_BYTES = 8 * 1024;

/** Lowercase hex SHA-256 computed here, for short inputs a synchronous caller holds (a setting, a bearer token). */
export function sha256HexSync(text: string): string {
  return bytesToHex(sha256(utf8(text)));
}

/** Lowercase hex SHA-256; a string is hashed as its UTF-8 bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? utf8(data) : (data as Uint8Array<ArrayBuffer>);
  if (bytes.byteLength <= INLINE_SHA256_MAX_BYTES) return bytesToHex(sha256(bytes));
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
