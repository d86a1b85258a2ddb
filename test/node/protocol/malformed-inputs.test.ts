// Hostile input gets a verdict with a clear reason — never a throw, a hang or a crash.
import { describe, expect, it } from "vitest";
import {
  base64urlEncode, parseBearerToken, ProtocolError, utf8, verifyBearerToken, verifyDelegationToken, verifyIdentityFile, verifyReceipt,
} from "../../../src/protocol/index.js";
import { demo, identityFile, receipt, receiptJson, vectors } from "./fixtures.js";

const TEN_MB = "A".repeat(10 * 1024 * 1024);
const WRONG_TYPES: unknown[] = [undefined, null, 0, -1, NaN, true, "", "x", [], [receipt], {}, () => 1, Symbol("s"), 10n];
const delegateId = demo.sovereign_motebit_id;

describe("malformed receipts", () => {
  it("wrong types", async () => {
    for (const bad of WRONG_TYPES) {
      const v = await verifyReceipt(bad);
      expect(v.valid).toBe(false);
      expect(v.errors.length).toBeGreaterThan(0);
    }
    expect((await verifyReceipt(42)).errors).toEqual(["receipt is not a JSON object"]);
    expect((await verifyReceipt("{oops")).errors).toEqual(["receipt is not valid JSON"]);
  });

  it("every truncation of the JSON text", async () => {
    for (let n = 0; n < receiptJson.length; n++) expect((await verifyReceipt(receiptJson.slice(0, n))).valid).toBe(false);
  });

  it("fields of the wrong type or shape name the field", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ public_key: "zz".repeat(32) }, "public_key must be a 32-byte Ed25519 key (64 hex chars)"],
      [{ public_key: 5 }, "public_key must be a 32-byte Ed25519 key (64 hex chars)"],
      [{ public_key: receipt.public_key.slice(2) }, "public_key must be a 32-byte Ed25519 key (64 hex chars)"],
      [{ signature: 5 }, "signature must be a base64url string"],
      [{ signature: receipt.signature.slice(0, 40) }, "signature must be 64 bytes, got 30"],
      [{ signature: "***" }, "signature is not valid base64url: base64url string has an invalid character at position 0"],
      [{ motebit_id: "" }, "motebit_id must be a non-empty string"],
      [{ suite: 7 }, "receipt uses unsupported suite 7"],
    ];
    for (const [change, message] of cases) expect((await verifyReceipt({ ...receipt, ...change })).errors).toContain(message);
  });

  it("a 10 MB JSON text is refused by size; a 10 MB field is just invalid", async () => {
    expect(await verifyReceipt(TEN_MB)).toEqual({ valid: false, errors: ["receipt is larger than 1 MiB"] });
    const v = await verifyReceipt({ ...receipt, result: TEN_MB });
    expect(v.valid).toBe(false);
    expect(v.errors).toEqual(["signature does not verify against public_key"]);
  });

  it("deep JSON nesting is a verdict, not a stack overflow", async () => {
    const deep = "[".repeat(100_000) + "]".repeat(100_000);
    const v = await verifyReceipt(`{"deep":${deep},${receiptJson.slice(1)}`);
    expect(v).toEqual({ valid: false, errors: ["receipt could not be verified: canonical JSON: nesting deeper than 1000"] });
  });

  it("a getter that throws is a verdict", async () => {
    const evil = { ...receipt };
    Object.defineProperty(evil, "signature", { enumerable: true, get() { throw new Error("boom"); } });
    expect(await verifyReceipt(evil)).toEqual({ valid: false, errors: ["receipt could not be verified: boom"] });
  });
});

describe("malformed bearer tokens", () => {
  const pub = demo.public_key_hex;

  it("wrong types, empty, no dot, bad base64url, 10 MB", async () => {
    for (const bad of [...WRONG_TYPES, ".", "a.", ".b", "abc", "a.b", "!!.!!", "eyJ9.AAAA", TEN_MB, TEN_MB + "." + TEN_MB]) {
      expect(await verifyBearerToken(bad as string, pub)).toEqual({ ok: false, reason: "token_unparseable" });
    }
  });

  it("every truncation", async () => {
    const token = vectors.tokens.valid_until_2100.token;
    for (let n = 0; n < token.length; n++) expect((await verifyBearerToken(token.slice(0, n), pub)).ok).toBe(false);
  });

  it("payloads that are not a JSON object, or not UTF-8", async () => {
    const sig = base64urlEncode(new Uint8Array(64));
    for (const payload of ["[]", "null", '"s"', "42", "{", "\u0000"]) {
      expect(parseBearerToken(base64urlEncode(utf8(payload)) + "." + sig)).toEqual({ ok: false, reason: "token_unparseable" });
    }
    expect(parseBearerToken(base64urlEncode(new Uint8Array([0xff, 0x7b])) + "." + sig)).toEqual({ ok: false, reason: "token_unparseable" });
    expect(parseBearerToken(vectors.tokens.valid_until_2100.token.split(".")[0] + "." + base64urlEncode(new Uint8Array(63)))).toEqual({
      ok: false, reason: "token_unparseable",
    });
  });

  it("the motebit: prefix is the caller's to strip", async () => {
    expect(await verifyBearerToken("motebit:" + vectors.tokens.valid_until_2100.token, pub)).toEqual({ ok: false, reason: "token_unparseable" });
  });
});

describe("malformed identity files", () => {
  it("wrong types, 10 MB, every truncation", async () => {
    for (const bad of [...WRONG_TYPES, TEN_MB, "---\n" + TEN_MB]) {
      const v = await verifyIdentityFile(bad as string);
      expect(v.valid).toBe(false);
      expect(v.errors.length).toBe(1);
    }
    expect((await verifyIdentityFile(TEN_MB)).errors).toEqual(["identity file is larger than 1 MiB"]);
    expect((await verifyIdentityFile(null as unknown as string)).errors).toEqual(["identity file must be text"]);
    // only the final newline after the signature comment is not needed
    for (let n = 0; n < identityFile.length - 1; n++) {
      expect((await verifyIdentityFile(identityFile.slice(0, n))).valid, `length ${n}`).toBe(false);
    }
    expect((await verifyIdentityFile(identityFile.slice(0, -1))).valid).toBe(true);
  });

  it("YAML that is not a mapping or is otherwise odd", async () => {
    const sig = "<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:" + "0".repeat(128) + " -->\n";
    for (const yaml of ["- a", "[1,2]", "a: b: c", "  indented: 1", "key", "a: [1,", 'a: "unterminated', '"k" 1', "a:b"]) {
      const v = await verifyIdentityFile(`---\n${yaml}\n---\n${sig}`);
      expect(v.valid).toBe(false);
      expect(v.errors[0]).toMatch(/^identity file (YAML line 2: |spec is)/);
    }
  });
});

describe("adversarial identity files stay fast", () => {
  it("long runs of spaces, colons and quotes (no quadratic regexes)", async () => {
    const sig = "<!-- motebit:sig:motebit-jcs-ed25519-hex-v1:" + "0".repeat(128) + " -->\n";
    const n = 300_000;
    for (const yaml of [
      "a: x" + " ".repeat(n) + "y",
      "k" + " ".repeat(n) + "z: 1",
      "a: " + ":".repeat(n),
      'a: "' + "\\".repeat(n),
      "a:" + "\n  b:".repeat(n / 10),
      "a: x" + " #".repeat(n),
    ]) {
      const start = performance.now();
      const v = await verifyIdentityFile(`---\n${yaml}\n---\n${sig}`);
      expect(v.valid).toBe(false);
      expect(performance.now() - start, yaml.slice(0, 20)).toBeLessThan(2000);
    }
  });
});

describe("malformed delegation tokens", () => {
  it("wrong types, 10 MB, every truncation", async () => {
    for (const bad of [...WRONG_TYPES, TEN_MB]) {
      const v = await verifyDelegationToken(bad as string, { delegateId });
      expect(v.ok).toBe(false);
      if (!v.ok) expect(v.error).toMatch(/^Denied: /);
    }
    const json = vectors.delegation.json_arg;
    for (let n = 0; n < json.length; n++) expect((await verifyDelegationToken(json.slice(0, n), { delegateId })).ok).toBe(false);
  });

  it("an unknown suite is named", async () => {
    const v = await verifyDelegationToken(JSON.stringify({ ...vectors.delegation.token, suite: "rot13" }), { delegateId });
    expect(v).toEqual({ ok: false, error: 'Denied: delegation token uses unsupported suite "rot13"' });
  });
});

describe("caller errors throw ProtocolError", () => {
  it("is an Error subclass with its own name", () => {
    const e = new ProtocolError("x");
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe("ProtocolError");
  });
});
