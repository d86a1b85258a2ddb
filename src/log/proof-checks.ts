// What a verifier concludes from the log's wire (docs/protocol.md §10): a receipt is in the tree a signed head names,
// and a later signed head extends an earlier one. Each answers null (it holds) or why not; none throws on bad input.
import { isHash, verifyConsistency, verifyInclusion } from "./merkle.js";
import { receiptLeafHash } from "./receipt-leaf.js";
import { treeHeadProblem, type TreeHead } from "./tree-head.js";

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object" && !Array.isArray(v);
const isPath = (v: unknown): v is string[] => Array.isArray(v) && v.every(isHash);

/** Whether `v` looks like a signed tree head (as opposed to a receipt or a token): the check of it is treeHeadProblem. */
export const looksLikeTreeHead = (v: unknown): boolean => isObject(v) && "tree_size" in v && "root_hash" in v && !("task_id" in v);

/** `proof` is GET /log/inclusion's answer {leaf_index, tree_size, audit_path} for this receipt at the head's size. */
export async function inclusionProblem(receipt: Record<string, unknown>, head: unknown, proof: unknown): Promise<string | null> {
  const bad = await treeHeadProblem(head);
  if (bad !== null) return `tree head: ${bad}`;
  const h = head as TreeHead;
  if (h.public_key !== receipt.public_key) return "the tree head is signed by another key than the receipt";
  if (!isObject(proof) || !Number.isSafeInteger(proof.leaf_index) || !isPath(proof.audit_path)) return "the inclusion proof must be {leaf_index, tree_size, audit_path: [hex…]}";
  if (proof.tree_size !== h.tree_size) return `the inclusion proof is for a tree of ${String(proof.tree_size)} leaves, the head's has ${h.tree_size}`;
  let leaf: string;
  try {
    leaf = receiptLeafHash(receipt);
  } catch (e) {
    return `the receipt has no canonical JSON: ${(e as Error).message}`;
  }
  return verifyInclusion(leaf, proof.leaf_index as number, h.tree_size, proof.audit_path, h.root_hash)
    ? null
    : `the receipt is not leaf ${String(proof.leaf_index)} of the tree of ${h.tree_size} leaves with root ${h.root_hash}`;
}

/** `proof` is GET /log/consistency's answer {first, second, consistency_path} for the two heads' sizes. */
export async function consistencyProblem(older: unknown, newer: unknown, proof: unknown): Promise<string | null> {
  for (const [name, head] of [["the earlier", older], ["the later", newer]] as const) {
    const bad = await treeHeadProblem(head);
    if (bad !== null) return `${name} tree head: ${bad}`;
  }
  const a = older as TreeHead;
  const b = newer as TreeHead;
  if (a.public_key !== b.public_key) return "the two tree heads are signed by different keys";
  if (b.tree_size < a.tree_size) return `the log shrank from ${a.tree_size} to ${b.tree_size} leaves`;
  if (!isObject(proof) || !isPath(proof.consistency_path)) return "the consistency proof must be {first, second, consistency_path: [hex…]}";
  if (proof.first !== a.tree_size || proof.second !== b.tree_size) return `the consistency proof is for sizes ${String(proof.first)} → ${String(proof.second)}, the heads are ${a.tree_size} → ${b.tree_size}`;
  return verifyConsistency(a.tree_size, b.tree_size, a.root_hash, b.root_hash, proof.consistency_path)
    ? null
    : `the tree of ${b.tree_size} leaves (root ${b.root_hash}) does not extend the tree of ${a.tree_size} leaves (root ${a.root_hash}): the log was rewritten or forked`;
}
