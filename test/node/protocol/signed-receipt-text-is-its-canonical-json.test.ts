// signReceipt keeps the signed receipt's canonical JSON (signature included) for the log's leaf, spliced from the
// text it signed rather than written again: it must be exactly canonicalJson of the receipt, for every field set.
import { expect, it } from "vitest";
import { receiptLeafHash, signedReceiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { canonicalJson, createSigner, receiptCanonicalJson, signReceipt, type UnsignedReceipt } from "../../../src/protocol/index.js";
import { demo, fill } from "./fixtures.js";

const base: UnsignedReceipt = {
  task_id: "t-1", motebit_id: demo.sovereign_motebit_id, device_id: "d-1", submitted_at: 1700000000000, completed_at: 1700000000500,
  status: "completed", result: "", tools_used: [], memories_formed: 0, prompt_hash: "a".repeat(64), result_hash: "b".repeat(64),
};

it("is canonicalJson of the signed receipt, with every optional field and awkward text", async () => {
  const signer = await createSigner(demo.seed_hex);
  const inner = await signReceipt({ ...base, result: "inner \"signature\":\"x\", status" }, await createSigner(fill.seed_hex));
  const bodies: UnsignedReceipt[] = [
    base,
    { ...base, status: "failed", result: "é€😀 \u2028 \"quoted\" \\ back", tools_used: ["echo", "read_url"], memories_formed: 3 },
    { ...base, relay_task_id: "relay-1", delegated_scope: "read", invocation_origin: "ai-loop" },
    { ...base, delegation_receipts: [inner, inner] },
  ];
  for (const b of bodies) {
    const signed = await signReceipt(b, signer);
    expect(receiptCanonicalJson(signed)).toBe(canonicalJson(signed));
    expect(signedReceiptLeafHash(signed)).toBe(receiptLeafHash(signed));
  }
});

it("is written afresh for a receipt signReceipt did not make (one parsed back from its JSON)", async () => {
  const signed = await signReceipt(base, await createSigner(demo.seed_hex));
  const parsed = JSON.parse(JSON.stringify(signed)) as object;
  expect(receiptCanonicalJson(parsed)).toBe(canonicalJson(signed));
  expect(signedReceiptLeafHash(parsed)).toBe(receiptLeafHash(signed));
});
