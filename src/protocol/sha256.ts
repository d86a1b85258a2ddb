import { sha256 } from "@noble/hashes/sha2.js";
import { bytesToHex, utf8 } from "./bytes.js";

/**
 * Up to this many bytes the digest is computed here, synchronously: WebCrypto's round trip (~25-120 µs of CPU in
 * Node, more under load) costs more than hashing a prompt or a tool result in JS. Past it WebCrypto's native code wins.
 */
export const INLINE_SHA256_MAX_BYTES = 8 * 1024;

/** A synchronous SHA-256 as lowercase hex; a string is hashed as its UTF-8 bytes. */
export type Sha256HexSync = (data: string | Uint8Array) => string;

const inJs: Sha256HexSync = (data) => bytesToHex(sha256(typeof data === "string" ? utf8(data) : data));

/**
 * The process's synchronous digest: @noble/hashes in JS, unless the host plugged in a native one (motebit-local:
 * node:crypto, 3–6× faster; workerd has no synchronous native digest, so the edge keeps JS). Both give the same
 * bytes, so which one runs changes only the speed of the log, receipt and token hashes.
 */
let digestHex: Sha256HexSync = inJs;

/** Set once at a host's start, before anything is hashed. */
export function useNativeSha256(native: Sha256HexSync): void {
  digestHex = native;
}

/** Lowercase hex SHA-256 computed synchronously, for short inputs a synchronous caller holds (a log node, a bearer token). */
export function sha256HexSync(data: string | Uint8Array): string {
  return digestHex(data);
}

/** Lowercase hex SHA-256; a string is hashed as its UTF-8 bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? utf8(data) : (data as Uint8Array<ArrayBuffer>);
  if (bytes.byteLength <= INLINE_SHA256_MAX_BYTES) return digestHex(bytes);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}
