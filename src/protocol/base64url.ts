import { ProtocolError } from "./errors.js";

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
const VALUE = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i;

/** base64url without padding (RFC 4648 §5). */
export function base64urlEncode(b: Uint8Array): string {
  let out = "";
  let i = 0;
  for (; i + 2 < b.length; i += 3) {
    const n = (b[i] << 16) | (b[i + 1] << 8) | b[i + 2];
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63] + ALPHABET[n & 63];
  }
  const rest = b.length - i;
  if (rest === 1) {
    const n = b[i] << 16;
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63];
  } else if (rest === 2) {
    const n = (b[i] << 16) | (b[i + 1] << 8);
    out += ALPHABET[n >> 18] + ALPHABET[(n >> 12) & 63] + ALPHABET[(n >> 6) & 63];
  }
  return out;
}

/**
 * Strict base64url decoding: padded or unpadded, but only canonical encodings — unused trailing bits must be
 * zero, so one byte string has exactly one accepted encoding (otherwise a signature could be re-spelt).
 * Throws ProtocolError.
 */
export function base64urlDecode(s: string): Uint8Array<ArrayBuffer> {
  if (typeof s !== "string") throw new ProtocolError(`expected a base64url string, got ${typeof s}`);
  let end = s.length;
  while (end > 0 && s.charCodeAt(end - 1) === 61 /* = */ && s.length - end < 2) end--;
  const pad = s.length - end;
  const rem = end % 4;
  if (rem === 1) throw new ProtocolError("base64url string has an impossible length");
  if (pad > 0 && (end + pad) % 4 !== 0) throw new ProtocolError("base64url string has wrong padding");
  const out = new Uint8Array(Math.floor((end * 3) / 4));
  let o = 0;
  let acc = 0;
  let bits = 0;
  for (let i = 0; i < end; i++) {
    const c = s.charCodeAt(i);
    const v = c < 128 ? VALUE[c] : -1;
    if (v < 0) throw new ProtocolError(`base64url string has an invalid character at position ${i}`);
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  if ((acc & ((1 << bits) - 1)) !== 0) throw new ProtocolError("base64url string is not canonical (non-zero trailing bits)");
  return out;
}

/**
 * The one spelling this project emits: unpadded. For values only we mint and verify (requestState), where a
 * second spelling of the same signature must not verify.
 */
export function base64urlDecodeUnpadded(s: string): Uint8Array<ArrayBuffer> {
  if (typeof s === "string" && s.includes("=")) throw new ProtocolError("base64url string is not canonical (padding)");
  return base64urlDecode(s);
}
