import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { createSigner, sha256Hex, signReceipt } from "../../../src/protocol/index.js";
import { demo, fill, identityFile, receipt, receiptJson, vectors } from "../protocol/fixtures.js";
import { runCli, tempDir, verdictOf } from "./run-cli.js";

// every test spawns the real CLI (node + tsx start-up), which is slow on a busy machine
vi.setConfig({ testTimeout: 90_000 });

const dir = tempDir();
function file(name: string, content: string): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}

describe("motebit-local verify: the golden vectors", () => {
  it("accepts the identity file", async () => {
    const r = await runCli(["verify", file("identity.md", identityFile)]);
    expect(r.code).toBe(0);
    expect(verdictOf(r)).toEqual({
      valid: true, type: "identity", signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true, errors: [],
    });
  });

  it("accepts the receipt", async () => {
    const r = await runCli(["verify", file("receipt.json", JSON.stringify(receipt, null, 2))]);
    expect(r.code).toBe(0);
    expect(verdictOf(r)).toEqual({
      valid: true, type: "receipt", signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true, errors: [],
    });
  });

  it("accepts the delegation token", async () => {
    const r = await runCli(["verify", file("delegation.json", vectors.delegation.json_arg)]);
    expect(r.code).toBe(0);
    expect(verdictOf(r)).toEqual({
      valid: true, type: "delegation_token", signer: fill.did_key, motebit_id: fill.sovereign_motebit_id, sovereign: true, errors: [],
    });
  });

  it("accepts the bearer token with --key as hex or did:key, with or without the motebit: prefix", async () => {
    const token = vectors.tokens.valid_until_2100.token;
    const expected = { valid: true, type: "bearer_token", signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true, errors: [] };
    const hex = await runCli(["verify", file("token.txt", token + "\n"), "--key", demo.public_key_hex]);
    expect(hex.code).toBe(0);
    expect(verdictOf(hex)).toEqual(expected);
    const did = await runCli(["verify", file("token2.txt", "motebit:" + token), "--key", demo.did_key]);
    expect(did.code).toBe(0);
    expect(verdictOf(did)).toEqual(expected);
  });

  it("reads stdin with -", async () => {
    const r = await runCli(["verify", "-"], { input: identityFile.replace(/\n/g, "\r\n") });
    expect(r.code).toBe(0);
    expect(verdictOf(r)).toMatchObject({ valid: true, type: "identity" });
  });
});

describe("motebit-local verify: refusals (exit 1)", () => {
  it("a tampered identity file", async () => {
    const r = await runCli(["verify", "-"], { input: identityFile.replace('"R4_MONEY"', '"R3_EXECUTE"') });
    expect(r.code).toBe(1);
    expect(verdictOf(r)).toMatchObject({ valid: false, type: "identity", errors: ["identity file signature does not verify against identity.public_key"] });
  });

  it("an identity signed by another key than --key", async () => {
    const r = await runCli(["verify", "-", "--key", fill.public_key_hex], { input: identityFile });
    expect(r.code).toBe(1);
    expect(verdictOf(r).errors).toEqual([`signed by ${demo.did_key}, not by the --key given (${fill.did_key})`]);
  });

  it("a tampered receipt, and a nested one with its failed_path", async () => {
    const r = await runCli(["verify", "-"], { input: JSON.stringify({ ...receipt, status: "completed" }) });
    expect(r.code).toBe(1);
    expect(verdictOf(r)).toMatchObject({ valid: false, type: "receipt", errors: ["signature does not verify against public_key"] });

    const signer = await createSigner(fill.seed_hex);
    const leaf = await signReceipt({ ...base(await sha256Hex("leaf")), result: "leaf" }, signer);
    const top = await signReceipt({ ...base(await sha256Hex("top")), result: "top", delegation_receipts: [{ ...leaf, result: "forged" }] }, signer);
    const nested = await runCli(["verify", "-"], { input: JSON.stringify(top) });
    expect(nested.code).toBe(1);
    expect(verdictOf(nested)).toMatchObject({ valid: false, type: "receipt", failed_path: "delegation_receipts[0]" });
  });

  it("a tampered delegation token and an expired bearer token", async () => {
    const d = await runCli(["verify", "-"], { input: JSON.stringify({ ...vectors.delegation.token, scope: "*" }) });
    expect(d.code).toBe(1);
    expect(verdictOf(d)).toMatchObject({
      valid: false, type: "delegation_token", reason: "signature_invalid", errors: ["Denied: delegation token has invalid signature"],
    });
    const t = await runCli(["verify", "-", "--key", demo.public_key_hex], { input: vectors.tokens.expired.token });
    expect(t.code).toBe(1);
    expect(verdictOf(t)).toMatchObject({ valid: false, type: "bearer_token", reason: "expired" });
  });

  it("a bearer token with the wrong key, without a key, or without a suite", async () => {
    const token = vectors.tokens.valid_until_2100.token;
    const [wrong, none, noSuite] = await Promise.all([
      runCli(["verify", "-", "--key", fill.public_key_hex], { input: token }),
      runCli(["verify", "-"], { input: token }),
      runCli(["verify", "-", "--key", demo.public_key_hex], { input: vectors.tokens.missing_suite_rejected.token }),
    ]);
    expect(wrong.code).toBe(1);
    expect(verdictOf(wrong)).toMatchObject({ valid: false, reason: "signature_invalid" });
    expect(none.code).toBe(1);
    expect(verdictOf(none)).toMatchObject({ valid: false, type: "bearer_token", reason: "no_key_for_caller", motebit_id: demo.sovereign_motebit_id });
    expect(noSuite.code).toBe(1);
    expect(verdictOf(noSuite)).toMatchObject({ valid: false, reason: "suite_unsupported" });
  });
});

describe("motebit-local verify: several artefacts at once (what `receipts` prints)", () => {
  const verdicts = (stdout: string) => stdout.trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>);
  const ok = { valid: true, type: "receipt", signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true, errors: [] };

  it("a JSON array, {receipt} wrappers, JSON Lines, and a tool answer with its identity tag", async () => {
    const tampered = { ...receipt, result: "forged" };
    const [array, jsonl, tagged] = await Promise.all([
      runCli(["verify", "-"], { input: JSON.stringify([receipt, { caller: "owner", created_at: 1, receipt }, tampered], null, 2) }),
      runCli(["verify", "-"], { input: `${receiptJson}\n${JSON.stringify({ receipt })}\n` }),
      runCli(["verify", "-"], { input: `${receiptJson}\n[motebit:${demo.sovereign_motebit_id.slice(0, 8)} key:${demo.public_key_hex.slice(0, 16)}]` }),
    ]);
    expect(array.code).toBe(1);
    const [first, second, third] = verdicts(array.stdout);
    expect(first).toEqual({ ...ok, item: 0 });
    expect(second).toEqual({ ...ok, item: 1 });
    expect(third).toMatchObject({ valid: false, type: "receipt", item: 2 });
    expect(jsonl.code).toBe(0);
    expect(verdicts(jsonl.stdout)).toEqual([{ ...ok, item: 0 }, { ...ok, item: 1 }]);
    expect(tagged.code).toBe(0);
    expect(verdictOf(tagged)).toEqual(ok);
  });
});

describe("motebit-local verify: unreadable or unknown input (exit 2)", () => {
  it("garbage, binary, a missing file, a bad --key", async () => {
    const garbage = ["hello world", "{not json", '{"neither":"kind"}', "[1,2]", ""];
    const bin = join(dir, "binary.bin");
    writeFileSync(bin, Buffer.from([0xff, 0xfe, 0x00, 0x01]));
    const [b, missing, badKey, ...results] = await Promise.all([
      runCli(["verify", bin]),
      runCli(["verify", join(dir, "nope.md")]),
      runCli(["verify", "-", "--key", "xyz"], { input: vectors.tokens.valid_until_2100.token }),
      ...garbage.map((input) => runCli(["verify", "-"], { input })),
    ]);
    results.forEach((r, i) => {
      expect(r.code, garbage[i]).toBe(2);
      expect(verdictOf(r)).toEqual({
        valid: false, type: "unknown", errors: ["input is not an identity file, receipt, delegation token or bearer token"],
      });
    });
    expect(b.code).toBe(2);
    expect(verdictOf(b).errors).toEqual([`cannot read ${bin}: bytes are not valid UTF-8`]);
    expect(missing.code).toBe(2);
    expect(String((verdictOf(missing).errors as string[])[0])).toMatch(/^cannot read .*nope\.md: ENOENT/);
    expect(badKey.code).toBe(2);
    expect(verdictOf(badKey).errors).toEqual(["--key must be a 64-hex-char Ed25519 public key or a did:key"]);
  });

  it("no FILE is a usage error", async () => {
    const r = await runCli(["verify"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('give exactly one FILE, or "-" for stdin');
  });
});

function base(promptHash: string) {
  return {
    task_id: "t", motebit_id: fill.sovereign_motebit_id, device_id: "d", submitted_at: 1, completed_at: 2, status: "completed" as const,
    tools_used: [], memories_formed: 0, prompt_hash: promptHash, result_hash: promptHash,
  };
}

// keep the fixture identity readable from disk as the CLI sees it
it("the fixture file on disk is the vector", () => {
  expect(readFileSync(join(dir, "identity.md"), "utf8")).toBe(identityFile);
});
