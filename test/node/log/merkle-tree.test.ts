// The stored tree (perfect subtrees, src/log/log-store.ts) against RFC 9162's definitions written out naively over
// the whole leaf list: the same roots, audit paths and consistency paths at every size and every pair of sizes up to
// 40 leaves, each path accepted by the verifiers and a wrong one refused.
import { describe, expect, it } from "vitest";
import { EMPTY_ROOT, leafHash, nodeHash, splitPoint, verifyConsistency, verifyInclusion } from "../../../src/log/merkle.js";
import { utf8 } from "../../../src/protocol/index.js";
import { ReceiptLedger } from "../../../src/log/receipt-ledger.js";
import { memorySql } from "../helpers/sqlite.js";

const N = 40;
const leaves = Array.from({ length: N }, (_, i) => leafHash(utf8(`leaf ${i}`)));

// RFC 9162 §2.1.1, §2.1.3.1, §2.1.4.1, literally.
const mth = (d: string[]): string => (d.length === 0 ? EMPTY_ROOT : d.length === 1 ? d[0] : nodeHash(mth(d.slice(0, splitPoint(d.length))), mth(d.slice(splitPoint(d.length)))));
function path(m: number, d: string[]): string[] {
  if (d.length === 1) return [];
  const k = splitPoint(d.length);
  return m < k ? [...path(m, d.slice(0, k)), mth(d.slice(k))] : [...path(m - k, d.slice(k)), mth(d.slice(0, k))];
}
function subproof(m: number, d: string[], b: boolean): string[] {
  if (m === d.length) return b ? [] : [mth(d)];
  const k = splitPoint(d.length);
  return m <= k ? [...subproof(m, d.slice(0, k), b), mth(d.slice(k))] : [...subproof(m - k, d.slice(k), false), mth(d.slice(0, k))];
}

describe("the stored tree", () => {
  const ledger = new ReceiptLedger(memorySql());
  ledger.migrate();
  // Each append answers the new leaf's proof in the tree that ends with it (motebit_task's _meta), by RFC 9162 too.
  const appended = leaves.map((h, i) => ledger.log.append(`t${i}`, h));

  it("has the RFC's root, audit paths and consistency paths at every size, and the verifiers accept them", () => {
    expect(ledger.log.size()).toBe(N);
    appended.forEach((p, i) => expect(p).toEqual({ leaf_index: i, tree_size: i + 1, root_hash: mth(leaves.slice(0, i + 1)), audit_path: path(i, leaves.slice(0, i + 1)) }));
    for (let n = 1; n <= N; n++) {
      const d = leaves.slice(0, n);
      const root = mth(d);
      expect(ledger.log.root(n)).toBe(root);
      for (let i = 0; i < n; i++) {
        const p = ledger.log.inclusion(i, n);
        expect(p).toEqual(path(i, d));
        expect(verifyInclusion(leaves[i], i, n, p, root)).toBe(true);
        // The same path for another leaf, index or size is refused.
        expect(verifyInclusion(leaves[(i + 1) % N], i, n, p, root)).toBe(false);
        if (n > 1) expect(verifyInclusion(leaves[i], (i + 1) % n, n, p, root)).toBe(false);
      }
      for (let m = 1; m <= n; m++) {
        const c = ledger.log.consistency(m, n);
        expect(c).toEqual(subproof(m, d, true));
        expect(verifyConsistency(m, n, mth(leaves.slice(0, m)), root, c)).toBe(true);
        // A forked first tree (a different leaf at m-1) is not consistent with this one.
        const forked = mth([...leaves.slice(0, m - 1), leafHash(utf8("forged"))]);
        expect(verifyConsistency(m, n, forked, root, c)).toBe(false);
      }
    }
  });

  it("verifiers refuse malformed input instead of throwing", () => {
    const root = ledger.log.root(8);
    const p = ledger.log.inclusion(3, 8);
    for (const bad of [[...p.slice(0, -1), "XYZ"], [...p, p[0]], p.slice(1)]) expect(verifyInclusion(leaves[3], 3, 8, bad, root)).toBe(false);
    expect(verifyInclusion(leaves[3], 8, 8, p, root)).toBe(false);
    expect(verifyInclusion(leaves[3], -1, 8, p, root)).toBe(false);
    expect(verifyConsistency(9, 8, root, root, [])).toBe(false);
    expect(verifyConsistency(3, 8, "00", root, ledger.log.consistency(3, 8))).toBe(false);
    expect(verifyConsistency(3, 8, ledger.log.root(3), root, [])).toBe(false);
  });

  it("an append rolled back with its transaction leaves no trace in the next one (the kept border is checked first)", () => {
    const sql = memorySql();
    const l = new ReceiptLedger(sql);
    l.migrate();
    leaves.slice(0, 6).forEach((h, i) => l.log.append(`t${i}`, h));
    expect(() =>
      sql.transaction(() => {
        l.log.append("gone", leafHash(utf8("rolled back")));
        throw new Error("the receipt's transaction failed");
      }),
    ).toThrow();
    for (let i = 6; i < 12; i++) expect(l.log.append(`t${i}`, leaves[i])).toEqual({ leaf_index: i, tree_size: i + 1, root_hash: mth(leaves.slice(0, i + 1)), audit_path: path(i, leaves.slice(0, i + 1)) });
    expect(l.log.root(12)).toBe(mth(leaves.slice(0, 12)));
  });

  it("two writers over one database take turns: each appends after the other's leaves, not over its own stale border", () => {
    const sql = memorySql();
    const a = new ReceiptLedger(sql);
    a.migrate();
    const b = new ReceiptLedger(sql);
    for (let i = 0; i < 12; i++) {
      const writer = i % 3 === 2 ? b : a;
      expect(writer.log.append(`t${i}`, leaves[i])).toEqual({ leaf_index: i, tree_size: i + 1, root_hash: mth(leaves.slice(0, i + 1)), audit_path: path(i, leaves.slice(0, i + 1)) });
    }
    expect(a.log.root(12)).toBe(mth(leaves.slice(0, 12)));
  });

  it("a missing stored node is an error, never a made-up hash", () => {
    const sql = memorySql();
    const l = new ReceiptLedger(sql);
    l.migrate();
    leaves.slice(0, 5).forEach((h, i) => l.log.append(`t${i}`, h));
    sql.run("DELETE FROM log_nodes WHERE level = 2");
    expect(() => l.log.root(5)).toThrow(/no node at level 2, index 0: its tables are damaged/);
    // A new writer (no border kept) reads the border from the stored nodes: it fails the same way, appending nothing.
    expect(() => new ReceiptLedger(sql).log.append("t5", leaves[5])).toThrow(/no node at level 2, index 0/);
    expect(l.log.size()).toBe(5);
  });
});
