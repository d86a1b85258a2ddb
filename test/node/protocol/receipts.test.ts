import { describe, expect, it } from "vitest";
import {
  createSigner, type ExecutionReceipt, MAX_RECEIPT_DEPTH, sha256Hex, signReceipt, type UnsignedReceipt, verifyReceipt,
} from "../../../src/protocol/index.js";
import { demo, fill, receipt, vectors } from "./fixtures.js";

async function body(prompt: string, result: string, extra: Partial<UnsignedReceipt> = {}): Promise<UnsignedReceipt> {
  return {
    task_id: crypto.randomUUID(), motebit_id: demo.sovereign_motebit_id, device_id: "d-1", submitted_at: 1700000000000,
    completed_at: 1700000000500, status: "completed", result, tools_used: ["read_url"], memories_formed: 0,
    prompt_hash: await sha256Hex(prompt), result_hash: await sha256Hex(result), ...extra,
  };
}

/** A chain: the receipt at depth 0 holds one at depth 1, ... down to `levels` below it. */
async function chain(levels: number): Promise<ExecutionReceipt> {
  const signer = await createSigner(fill.seed_hex);
  let inner = await signReceipt(await body("p", "leaf"), signer);
  for (let i = 0; i < levels - 1; i++) inner = await signReceipt(await body("p", `level ${i}`, { delegation_receipts: [inner] }), signer);
  return signReceipt(await body("p", "top", { delegation_receipts: [inner] }), await createSigner(demo.seed_hex));
}

describe("receipts: the vector", () => {
  it("verifies, with signer did:key and sovereign id", async () => {
    expect(await verifyReceipt(receipt, { checkResultHash: true })).toEqual({
      valid: true, errors: [], signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true,
    });
    expect((await verifyReceipt(JSON.stringify(receipt))).valid).toBe(true);
  });

  it("signReceipt reproduces the vector signature and field set", async () => {
    const { public_key: _p, suite: _s, signature: _g, ...b } = receipt;
    const signed = await signReceipt(b as UnsignedReceipt, await createSigner(demo.seed_hex));
    expect(signed).toEqual(receipt);
    expect(Object.keys(signed)).toEqual(Object.keys(receipt));
  });

  it("any one field changed is invalid", async () => {
    const changes: Record<string, unknown> = {
      task_id: "t-2", motebit_id: fill.sovereign_motebit_id, device_id: "d-2", submitted_at: 1700000000001, completed_at: 1,
      status: "completed", result: "x", tools_used: ["shell"], memories_formed: 1, prompt_hash: "0".repeat(64), result_hash: "1".repeat(64),
      public_key: fill.public_key_hex,
    };
    for (const [field, value] of Object.entries(changes)) {
      const v = await verifyReceipt({ ...receipt, [field]: value });
      expect(v.valid, field).toBe(false);
      expect(v.errors, field).toEqual(["signature does not verify against public_key"]);
    }
    for (const extra of [{ relay_task_id: "r-1" }, { delegated_scope: "*" }, { invocation_origin: "ai-loop" }, { extra: 1 }]) {
      expect((await verifyReceipt({ ...receipt, ...extra })).valid).toBe(false);
    }
    const { memories_formed: _m, ...missing } = receipt;
    expect((await verifyReceipt(missing)).valid).toBe(false);
  });

  it("recomputes result_hash only when asked", async () => {
    const signed = await signReceipt(await body("p", "the result", { result_hash: "0".repeat(64) }), await createSigner(demo.seed_hex));
    expect((await verifyReceipt(signed)).valid).toBe(true);
    expect(await verifyReceipt(signed, { checkResultHash: true })).toMatchObject({ valid: false, errors: ["result_hash is not the SHA-256 of result"] });
  });
});

describe("receipts: signing", () => {
  it("drops undefined fields and an empty delegation_receipts, emits only docs/protocol.md §4 fields", async () => {
    const b = await body("p", "r", { relay_task_id: undefined, delegation_receipts: [], invocation_origin: "agent-to-agent" });
    (b as unknown as Record<string, unknown>).not_in_schema = "x";
    const signed = await signReceipt(b, await createSigner(demo.seed_hex));
    expect(Object.keys(signed)).toEqual([
      "task_id", "motebit_id", "device_id", "submitted_at", "completed_at", "status", "result", "tools_used", "memories_formed",
      "prompt_hash", "result_hash", "invocation_origin", "public_key", "suite", "signature",
    ]);
    expect(signed.suite).toBe(vectors.minimal_receipt.receipt.suite);
    expect(signed.public_key).toBe(demo.public_key_hex);
    expect((await verifyReceipt(signed, { checkResultHash: true })).valid).toBe(true);
  });

  it("a non-sovereign motebit_id verifies but says so", async () => {
    const signed = await signReceipt(await body("p", "r", { motebit_id: "legacy-random-id" }), await createSigner(demo.seed_hex));
    expect(await verifyReceipt(signed)).toMatchObject({ valid: true, sovereign: false, motebit_id: "legacy-random-id" });
  });

  it("throws on values canonical JSON cannot carry", async () => {
    await expect(signReceipt(await body("p", "r", { completed_at: NaN }), await createSigner(demo.seed_hex))).rejects.toThrow(
      "canonical JSON cannot encode the number NaN",
    );
  });
});

describe("receipts: nested delegation receipts", () => {
  it("verifies each nested receipt under its own key", async () => {
    const signer = await createSigner(fill.seed_hex);
    const a = await signReceipt(await body("p", "a", { motebit_id: fill.sovereign_motebit_id }), signer);
    const b = await signReceipt(await body("p", "b", { motebit_id: fill.sovereign_motebit_id }), signer);
    const top = await signReceipt(await body("p", "top", { delegation_receipts: [a, b] }), await createSigner(demo.seed_hex));
    expect(await verifyReceipt(top, { checkResultHash: true })).toEqual({
      valid: true, errors: [], signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true,
    });
  });

  it("reports failed_path for the nested receipt that fails", async () => {
    const signer = await createSigner(fill.seed_hex);
    const good = await signReceipt(await body("p", "good"), signer);
    const bad = { ...(await signReceipt(await body("p", "bad"), signer)), result: "forged" };
    const mid = await signReceipt(await body("p", "mid", { delegation_receipts: [good, bad] }), signer);
    const top = await signReceipt(await body("p", "top", { delegation_receipts: [good, mid] }), await createSigner(demo.seed_hex));
    const v = await verifyReceipt(top);
    expect(v.valid).toBe(false);
    expect(v.failed_path).toBe("delegation_receipts[1].delegation_receipts[1]");
    expect(v.errors).toEqual(["delegation_receipts[1].delegation_receipts[1]: signature does not verify against public_key"]);
    expect(v.signer).toBe(demo.did_key);
  });

  it("a nested receipt that fails itself is the culprit even if its children fail too", async () => {
    const signer = await createSigner(fill.seed_hex);
    const badLeaf = { ...(await signReceipt(await body("p", "leaf"), signer)), result: "forged" };
    const mid = { ...(await signReceipt(await body("p", "mid", { delegation_receipts: [badLeaf] }), signer)), task_id: "forged" };
    const top = await signReceipt(await body("p", "top", { delegation_receipts: [mid] }), await createSigner(demo.seed_hex));
    expect((await verifyReceipt(top)).failed_path).toBe("delegation_receipts[0]");
  });

  it(`accepts nesting ${MAX_RECEIPT_DEPTH} levels deep and refuses ${MAX_RECEIPT_DEPTH + 1}`, async () => {
    expect(await verifyReceipt(await chain(MAX_RECEIPT_DEPTH))).toMatchObject({ valid: true, errors: [] });
    const tooDeep = await verifyReceipt(await chain(MAX_RECEIPT_DEPTH + 1));
    const path = Array.from({ length: MAX_RECEIPT_DEPTH + 1 }, () => "delegation_receipts[0]").join(".");
    expect(tooDeep.valid).toBe(false);
    expect(tooDeep.failed_path).toBe(path);
    expect(tooDeep.errors).toEqual([`${path}: delegation receipts are nested deeper than 10 levels`]);
  });

  it("refuses a delegation_receipts that is not a list of objects", async () => {
    const signer = await createSigner(demo.seed_hex);
    const notList = await signReceipt({ ...(await body("p", "r")), delegation_receipts: "nope" as unknown as ExecutionReceipt[] }, signer);
    expect((await verifyReceipt(notList)).errors).toEqual(["delegation_receipts must be an array"]);
    const notObject = await signReceipt({ ...(await body("p", "r")), delegation_receipts: [42] as unknown as ExecutionReceipt[] }, signer);
    expect(await verifyReceipt(notObject)).toMatchObject({
      valid: false, failed_path: "delegation_receipts[0]", errors: ["delegation_receipts[0]: receipt is not a JSON object"],
    });
  });
});

describe("receipts: suite", () => {
  it("refuses a missing or unknown suite", async () => {
    const { suite: _s, ...noSuite } = receipt;
    expect((await verifyReceipt(noSuite)).errors).toEqual(["receipt has no suite"]);
    expect((await verifyReceipt({ ...receipt, suite: "motebit-jcs-ed25519-b64-v2" })).errors).toEqual([
      'receipt uses unsupported suite "motebit-jcs-ed25519-b64-v2"',
    ]);
  });
});
