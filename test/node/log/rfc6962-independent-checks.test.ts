// Our tree against what we did not write: the transparency-dev/merkle reference tree (its leaves, roots and proofs,
// test/fixtures/rfc6962/transparency-dev-vectors.json) and Sigstore's RFC 6962 inclusion verifier (@sigstore/verify,
// the check npm runs on Rekor entries), which hashes our canonical receipt bytes itself.
import { createRequire } from "node:module";
import { describe, expect, it } from "vitest";
import vectors from "../../fixtures/rfc6962/transparency-dev-vectors.json";
import { EMPTY_ROOT, leafHash, verifyConsistency, verifyInclusion } from "../../../src/log/merkle.js";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { canonicalJson, hexToBytes, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { ReceiptLedger } from "../../../src/log/receipt-ledger.js";
import { memorySql } from "../helpers/sqlite.js";
import { steppingClock, task } from "../agent/task-fixture.js";

type SigstoreEntry = { canonicalizedBody: Buffer; inclusionProof: { logIndex: string; hashes: Buffer[] } };
// Not in the package's exports map: the module Sigstore's own bundle verification calls.
const { verifyMerkleInclusion } = createRequire(import.meta.url)("@sigstore/verify/dist/tlog/merkle.js") as {
  verifyMerkleInclusion(entry: SigstoreEntry, checkpoint: { logSize: bigint; logHash: Buffer }): void;
};

function emptyLog() {
  const ledger = new ReceiptLedger(memorySql());
  ledger.migrate();
  return ledger.log;
}

describe("the transparency-dev reference tree", () => {
  const log = emptyLog();
  vectors.leaves.forEach((hex, i) => log.append(`leaf-${i}`, leafHash(hexToBytes(hex))));

  it("has the reference root at every size", () => {
    expect(EMPTY_ROOT).toBe(vectors.roots[0]);
    for (let size = 0; size <= vectors.leaves.length; size++) expect(log.root(size), `size ${size}`).toBe(vectors.roots[size]);
  });

  it("makes the reference inclusion proofs, and verifies them", () => {
    for (const v of vectors.inclusion) {
      expect(log.inclusion(v.leaf_index, v.tree_size)).toEqual(v.audit_path);
      expect(verifyInclusion(v.leaf_hash, v.leaf_index, v.tree_size, v.audit_path, v.root)).toBe(true);
    }
  });

  it("makes the reference consistency proofs, and verifies them", () => {
    for (const v of vectors.consistency) {
      expect(log.consistency(v.first, v.second)).toEqual(v.consistency_path);
      expect(verifyConsistency(v.first, v.second, v.first_root, v.second_root, v.consistency_path)).toBe(true);
      if (v.consistency_path.length > 0) {
        const flipped = [...v.consistency_path];
        flipped[0] = (flipped[0][0] === "0" ? "1" : "0") + flipped[0].slice(1);
        expect(verifyConsistency(v.first, v.second, v.first_root, v.second_root, flipped)).toBe(false);
      }
    }
  });
});

describe("Sigstore's RFC 6962 verifier", () => {
  it("accepts our inclusion proof of every receipt at every tree size, over the receipt's canonical JSON, and refuses a changed receipt", async () => {
    const ledger = new ReceiptLedger(memorySql());
    ledger.migrate();
    const clock = steppingClock();
    const receipts: ExecutionReceipt[] = [];
    for (let i = 0; i < 13; i++) {
      const r = await task({ prompt: `task ${i}`, clock });
      ledger.append(r, "owner");
      receipts.push(r);
    }
    const check = (receipt: object, index: number, size: number) =>
      verifyMerkleInclusion(
        { canonicalizedBody: Buffer.from(canonicalJson(receipt)), inclusionProof: { logIndex: String(index), hashes: ledger.log.inclusion(index, size).map((h) => Buffer.from(h, "hex")) } },
        { logSize: BigInt(size), logHash: Buffer.from(ledger.log.root(size), "hex") },
      );
    for (let size = 1; size <= receipts.length; size++) {
      for (let i = 0; i < size; i++) expect(() => check(receipts[i], i, size), `leaf ${i} of ${size}`).not.toThrow();
    }
    expect(receiptLeafHash(receipts[4])).toBe(ledger.log.leaves(4, 1)[0].leafHash);
    expect(() => check({ ...receipts[4], result: "something else" }, 4, 13)).toThrow(/does not match/);
  });
});
