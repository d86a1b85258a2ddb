// The log's right border: the roots of the complete subtrees a tree of `size` leaves is made of (one per set bit of
// size, largest first). Appending a leaf merges it with the smallest ones; the subtrees it merged with are the new
// leaf's audit path inside its subtree, the rest of the border the path above it, and folding the border gives the
// root. So the append that stores a receipt also yields its inclusion proof, with no further reads.
import { nodeHash } from "./merkle.js";

export interface BorderNode {
  level: number;
  hash: string;
}

export interface Frontier {
  size: number;
  /** The last leaf's hash (null for the empty tree): what a kept frontier is checked against before use. */
  lastLeaf: string | null;
  /** Largest first. */
  nodes: readonly BorderNode[];
}

/** A receipt's inclusion in the tree that ends with it: motebit_task's `_meta["motebit/log"]` (docs/protocol.md §10). */
export interface ReceiptProof {
  leaf_index: number;
  tree_size: number;
  root_hash: string;
  audit_path: string[];
}

export const EMPTY_FRONTIER: Frontier = { size: 0, lastLeaf: null, nodes: [] };

/** The border's subtrees of a tree of `size` leaves as (level, index), largest first. */
export function borderPositions(size: number): { level: number; index: number }[] {
  const out: { level: number; index: number }[] = [];
  for (let level = Math.floor(Math.log2(Math.max(size, 1))); level >= 0; level--) {
    const above = Math.floor(size / 2 ** level);
    if (above % 2 === 1) out.push({ level, index: above - 1 });
  }
  return out;
}

/** Appends `leaf`: the new border, the complete subtrees it made (to store), and the leaf's proof in the new tree. */
export function appendLeaf(f: Frontier, leaf: string): { frontier: Frontier; made: { level: number; index: number; hash: string }[]; proof: ReceiptProof } {
  const nodes = [...f.nodes];
  const made: { level: number; index: number; hash: string }[] = [];
  const path: string[] = [];
  let hash = leaf;
  let level = 0;
  while (nodes.length > 0 && nodes[nodes.length - 1].level === level) {
    const left = nodes.pop()!;
    path.push(left.hash);
    hash = nodeHash(left.hash, hash);
    level++;
    made.push({ level, index: Math.floor(f.size / 2 ** level), hash });
  }
  // Above the new subtree, each larger subtree of the border is a left sibling, smallest first.
  let root = hash;
  for (let i = nodes.length - 1; i >= 0; i--) {
    path.push(nodes[i].hash);
    root = nodeHash(nodes[i].hash, root);
  }
  nodes.push({ level, hash });
  return { frontier: { size: f.size + 1, lastLeaf: leaf, nodes }, made, proof: { leaf_index: f.size, tree_size: f.size + 1, root_hash: root, audit_path: path } };
}
