// Embeddings are stored beside their rows as raw little-endian float32 bytes (4 bytes per dimension).
import type { SqlValue } from "../ports.js";

export function vectorToBlob(v: Float32Array): Uint8Array {
  // Copy: the caller's array may be a view into a larger buffer that must not be written out.
  return new Uint8Array(v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength));
}

/** Accepts what either SQLite host returns for a BLOB (ArrayBuffer in workerd, a Uint8Array/Buffer in Node). */
export function blobToVector(b: SqlValue | undefined): Float32Array | null {
  if (b instanceof ArrayBuffer) return b.byteLength % 4 === 0 ? new Float32Array(b.slice(0)) : null;
  if (b instanceof Uint8Array) {
    if (b.byteLength % 4 !== 0) return null;
    // A Buffer's offset into its pool is rarely 4-aligned, so copy rather than view.
    return new Float32Array(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
  }
  return null;
}
