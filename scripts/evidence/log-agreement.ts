// Does the transparency log agree with the receipt ledger (docs/protocol.md §10)? Every receipt row has its leaf and
// every leaf its receipt row, the leaf hash is the receipt's, the leaf indexes run 0…n-1, and every stored subtree hash
// is the hash of its two children. Read from the database a host left: after kills, nothing may be half-written.
import { nodeHash } from "../../src/log/merkle.js";
import { receiptLeafHash } from "../../src/log/receipt-leaf.js";

type Query = <T>(sql: string, ...params: (string | number)[]) => T[];

export function logAgreement(query: Query): { lines: string[]; failures: string[] } {
  const receipts = query<{ task_id: string; json: string }>("SELECT task_id, json FROM receipts");
  const leaves = query<{ leaf_index: number; leaf_hash: string; task_id: string }>("SELECT leaf_index, leaf_hash, task_id FROM log_leaves ORDER BY leaf_index");
  const nodes = query<{ level: number; idx: number; hash: string }>("SELECT level, idx, hash FROM log_nodes ORDER BY level, idx");
  const leafOf = new Map(leaves.map((l) => [l.task_id, l]));
  const receiptIds = new Set(receipts.map((r) => r.task_id));
  const withoutLeaf = receipts.filter((r) => !leafOf.has(r.task_id)).length;
  const withoutReceipt = leaves.filter((l) => !receiptIds.has(l.task_id)).length;
  const wrongHash = receipts.filter((r) => leafOf.has(r.task_id) && leafOf.get(r.task_id)!.leaf_hash !== receiptLeafHash(JSON.parse(r.json) as object)).length;
  const gaps = leaves.filter((l, i) => l.leaf_index !== i).length;
  const hashAt = new Map<string, string>(leaves.map((l) => [`0:${l.leaf_index}`, l.leaf_hash]));
  for (const n of nodes) hashAt.set(`${n.level}:${n.idx}`, n.hash);
  const badNodes = nodes.filter((n) => {
    const left = hashAt.get(`${n.level - 1}:${2 * n.idx}`);
    const right = hashAt.get(`${n.level - 1}:${2 * n.idx + 1}`);
    return left === undefined || right === undefined || nodeHash(left, right) !== n.hash;
  }).length;
  // Every complete subtree must be stored: floor(n / 2^level) nodes at each level above the leaves.
  let expectedNodes = 0;
  for (let width = 2; width <= leaves.length; width *= 2) expectedNodes += Math.floor(leaves.length / width);
  const failures: string[] = [];
  if (withoutLeaf) failures.push(`log: ${withoutLeaf} receipts are not in the log`);
  if (withoutReceipt) failures.push(`log: ${withoutReceipt} leaves have no receipt`);
  if (wrongHash) failures.push(`log: ${wrongHash} leaves do not hash their receipt`);
  if (gaps) failures.push(`log: leaf indexes are not 0…${leaves.length - 1}`);
  if (badNodes || nodes.length !== expectedNodes) failures.push(`log: ${badNodes} stored subtree hashes are wrong, ${nodes.length}/${expectedNodes} stored`);
  return {
    lines: [`log: ${receipts.length} receipts, ${leaves.length} leaves; receipts outside the log ${withoutLeaf}, leaves without a receipt ${withoutReceipt}, wrong leaf hashes ${wrongHash}, wrong or missing subtree hashes ${badNodes + Math.abs(expectedNodes - nodes.length)}`],
    failures,
  };
}
