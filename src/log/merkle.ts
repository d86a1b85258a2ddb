// RFC 9162 §2.1 Merkle tree hashing, and checking the two proofs it defines, with nothing but SHA-256: the same code
// checks a proof in `motebit-local verify`, `log watch` and the tests. Hashes travel as lowercase hex.
import { hexToBytes } from "../protocol/bytes.js";
import { sha256HexSync } from "../protocol/sha256.js";

const LEAF_PREFIX = 0x00;
const NODE_PREFIX = 0x01;

/** SHA-256(0x00 ‖ data), hex. */
export function leafHash(data: Uint8Array): string {
  const buf = new Uint8Array(1 + data.length);
  buf[0] = LEAF_PREFIX;
  buf.set(data, 1);
  return sha256HexSync(buf);
}

/** SHA-256(0x00 ‖ UTF-8 of text), hex: U+0000 is the one byte 0x00 in UTF-8, so the prefix joins the text unencoded. */
export function leafHashOfText(text: string): string {
  return sha256HexSync("\u0000" + text);
}

/** SHA-256(0x01 ‖ left ‖ right), hex in and out. */
export function nodeHash(left: string, right: string): string {
  const buf = new Uint8Array(65);
  buf[0] = NODE_PREFIX;
  buf.set(hexToBytes(left, 32), 1);
  buf.set(hexToBytes(right, 32), 33);
  return sha256HexSync(buf);
}

/** The root of the empty tree: SHA-256 of nothing. */
export const EMPTY_ROOT = sha256HexSync(new Uint8Array(0));

/** The largest power of two smaller than n (n ≥ 2): where RFC 9162 splits a tree of n leaves. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

const HEX32 = /^[0-9a-f]{64}$/;
export const isHash = (v: unknown): v is string => typeof v === "string" && HEX32.test(v);

const lsb = (n: number) => n % 2 === 1;
const half = (n: number) => Math.floor(n / 2);

/** RFC 9162 §2.1.3.2: the root `path` leads to from `leaf` at `index` in a tree of `size`, or null when it cannot. */
export function rootFromInclusion(leaf: string, index: number, size: number, path: readonly string[]): string | null {
  if (!Number.isSafeInteger(index) || !Number.isSafeInteger(size) || index < 0 || index >= size) return null;
  if (!isHash(leaf) || !path.every(isHash)) return null;
  let fn = index;
  let sn = size - 1;
  let r = leaf;
  for (const p of path) {
    if (sn === 0) return null;
    if (lsb(fn) || fn === sn) {
      r = nodeHash(p, r);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      r = nodeHash(r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return sn === 0 ? r : null;
}

export function verifyInclusion(leaf: string, index: number, size: number, path: readonly string[], root: string): boolean {
  return rootFromInclusion(leaf, index, size, path) === root;
}

/**
 * RFC 9162 §2.1.4.2: whether `path` proves the tree of `first` leaves with root `firstRoot` is a prefix of the tree
 * of `second` leaves with root `secondRoot`. Equal sizes need an empty path and equal roots.
 */
export function verifyConsistency(first: number, second: number, firstRoot: string, secondRoot: string, path: readonly string[]): boolean {
  if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first < 0 || first > second) return false;
  if (!isHash(firstRoot) || !isHash(secondRoot) || !path.every(isHash)) return false;
  if (first === second) return path.length === 0 && firstRoot === secondRoot;
  // Every tree extends the empty one; the RFC's proof for it is empty.
  if (first === 0) return path.length === 0 && firstRoot === EMPTY_ROOT;
  if (path.length === 0) return false;
  const c = (first & (first - 1)) === 0 ? [firstRoot, ...path] : [...path];
  let fn = first - 1;
  let sn = second - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = c[0];
  let sr = c[0];
  for (const p of c.slice(1)) {
    if (sn === 0) return false;
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(p, fr);
      sr = nodeHash(p, sr);
      if (!lsb(fn)) {
        while (!lsb(fn) && fn !== 0) {
          fn = half(fn);
          sn = half(sn);
        }
      }
    } else {
      sr = nodeHash(sr, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  return fr === firstRoot && sr === secondRoot && sn === 0;
}
