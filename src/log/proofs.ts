// RFC 9162 §2.1.1, §2.1.3.1 and §2.1.4.1 (MTH, PATH, PROOF) over a tree that keeps the hash of every complete
// ("perfect") subtree: any range the recursion asks for is a stored node, or splits into one stored node and a
// shorter range, so a root or a proof reads O(log² n) stored nodes and never the leaves.
import { EMPTY_ROOT, nodeHash, splitPoint } from "./merkle.js";

/** The hash of the perfect subtree at `level` (2^level leaves) starting at leaf `index * 2^level`. */
export type StoredNode = (level: number, index: number) => string;

const isPowerOfTwo = (n: number) => (n & (n - 1)) === 0;

/**
 * MTH(D[start:end]). The recursion only asks for ranges whose start is a multiple of the largest power of two not
 * above their length, so a power-of-two range is always one stored node.
 */
export function subtreeHash(node: StoredNode, start: number, end: number): string {
  const n = end - start;
  if (n === 0) return EMPTY_ROOT;
  if (isPowerOfTwo(n)) return node(Math.log2(n), start / n);
  const k = splitPoint(n);
  return nodeHash(subtreeHash(node, start, start + k), subtreeHash(node, start + k, end));
}

/** PATH(index, D[0:size]): the audit path, nearest the leaf first. */
export function inclusionPath(node: StoredNode, index: number, size: number): string[] {
  const out: string[] = [];
  let start = 0;
  let end = size;
  // Walks down from the root; the siblings are collected top-down and returned leaf-first.
  while (end - start > 1) {
    const k = splitPoint(end - start);
    if (index < start + k) {
      out.push(subtreeHash(node, start + k, end));
      end = start + k;
    } else {
      out.push(subtreeHash(node, start, start + k));
      start += k;
    }
  }
  return out.reverse();
}

/** PROOF(first, D[0:second]) for 0 < first ≤ second; empty when they are equal. */
export function consistencyPath(node: StoredNode, first: number, second: number): string[] {
  const out: string[] = [];
  let start = 0;
  let end = second;
  let m = first;
  let whole = true;
  // SUBPROOF(m, D[start:end], whole), unrolled: each step adds one sibling, collected top-down.
  while (m !== end - start) {
    const k = splitPoint(end - start);
    if (m <= k) {
      out.push(subtreeHash(node, start + k, end));
      end = start + k;
    } else {
      out.push(subtreeHash(node, start, start + k));
      start += k;
      m -= k;
      whole = false;
    }
  }
  if (!whole) out.push(subtreeHash(node, start, end));
  return out.reverse();
}
