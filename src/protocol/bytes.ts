import { ProtocolError } from "./errors.js";

const HEX_BYTE = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, "0"));
/** The value of each hex digit's char code, -1 for every other code below 128. */
const HEX_VALUE = Int8Array.from({ length: 128 }, (_, c) => (c >= 48 && c <= 57 ? c - 48 : c >= 97 && c <= 102 ? c - 87 : c >= 65 && c <= 70 ? c - 55 : -1));
const encoder = new TextEncoder();
// fatal: invalid UTF-8 is an error, never silently replaced; ignoreBOM: keep the bytes we were given.
const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Lowercase hex. */
export function bytesToHex(b: Uint8Array): string {
  let s = "";
  for (let i = 0; i < b.length; i++) s += HEX_BYTE[b[i]];
  return s;
}

/** Strict hex decoding: no prefix, no whitespace, even length; optional exact byte length. Throws ProtocolError. */
export function hexToBytes(hex: string, expectedLength?: number): Uint8Array<ArrayBuffer> {
  if (typeof hex !== "string") throw new ProtocolError(`expected a hex string, got ${typeof hex}`);
  if (expectedLength !== undefined && hex.length !== expectedLength * 2) {
    throw new ProtocolError(`expected ${expectedLength} bytes (${expectedLength * 2} hex chars), got ${hex.length} chars`);
  }
  if (hex.length % 2 !== 0) throw new ProtocolError(`hex string has odd length ${hex.length}`);
  const out = new Uint8Array(hex.length / 2);
  // A table per character: the log hashes two decoded node hashes per tree node (src/log/merkle.ts).
  for (let i = 0; i < out.length; i++) {
    const hi = HEX_VALUE[hex.charCodeAt(2 * i)] ?? -1;
    const lo = HEX_VALUE[hex.charCodeAt(2 * i + 1)] ?? -1;
    if (hi < 0 || lo < 0) throw new ProtocolError("hex string contains a non-hex character");
    out[i] = (hi << 4) | lo;
  }
  return out;
}

export function utf8(s: string): Uint8Array<ArrayBuffer> {
  return encoder.encode(s);
}

/** UTF-8 decoding that refuses invalid sequences. Throws ProtocolError. */
export function fromUtf8(b: Uint8Array): string {
  try {
    return decoder.decode(b);
  } catch {
    throw new ProtocolError("bytes are not valid UTF-8");
  }
}

export function randomHex(bytes: number): string {
  if (!Number.isInteger(bytes) || bytes < 0 || bytes > 65536) throw new ProtocolError(`randomHex: bad byte count ${bytes}`);
  return bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)));
}

/**
 * Compare a presented secret `a` with the expected `b` without an early exit: the time depends only on
 * the length of `a` (the caller's own input), never on where the first difference is.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (typeof a !== "string" || typeof b !== "string") return false;
  const x = utf8(a);
  const y = utf8(b);
  let diff = x.length ^ y.length;
  const n = y.length || 1;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ (y[i % n] ?? 0);
  return diff === 0;
}
