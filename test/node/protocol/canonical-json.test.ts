import { describe, expect, it } from "vitest";
import { canonicalJson, ProtocolError } from "../../../src/protocol/index.js";
import { vectors } from "./fixtures.js";

describe("canonical JSON (RFC 8785)", () => {
  it("reproduces the receipt and delegation vectors' canonical text", () => {
    const { signature: _r, ...receiptBody } = vectors.minimal_receipt.receipt;
    expect(canonicalJson(receiptBody)).toBe(vectors.minimal_receipt.canonical);
    const { signature: _d, ...tokenBody } = vectors.delegation.token;
    expect(canonicalJson(tokenBody)).toBe(vectors.delegation.canonical);
  });

  it("sorts keys by UTF-16 code units, recursively, with no whitespace", () => {
    expect(canonicalJson({ b: 1, a: { d: [3, { z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"y":2,"z":1}]},"b":1}');
    // "\u{1F600}" is a surrogate pair starting 0xD83D, which sorts before U+FB01 by code units (not by code point).
    expect(canonicalJson({ "\uFB01": 1, "\u{1F600}": 2, Z: 3, a: 4, "10": 5, "9": 6 })).toBe('{"10":5,"9":6,"Z":3,"a":4,"😀":2,"ﬁ":1}');
  });

  it("drops undefined-valued keys but keeps null", () => {
    expect(canonicalJson({ a: undefined, b: null, c: [1] })).toBe('{"b":null,"c":[1]}');
  });

  it("escapes strings exactly as JSON.stringify does", () => {
    const s = 'q"b\\s/\n\t\u0001\u2028é😀\ud800';
    expect(canonicalJson({ s })).toBe(`{"s":${JSON.stringify(s)}}`);
  });

  it("prints numbers the way JavaScript serialises them", () => {
    expect(canonicalJson([0, -0, 1700000000000, 0.3, 1e21, 1e-7, -1.5, 2 ** 53])).toBe("[0,0,1700000000000,0.3,1e+21,1e-7,-1.5,9007199254740992]");
  });

  it("refuses what JSON cannot say, with a ProtocolError", () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const [bad, message] of [
      [{ n: NaN }, "canonical JSON cannot encode the number NaN"],
      [{ n: Infinity }, "canonical JSON cannot encode the number Infinity"],
      [{ n: 1n }, "canonical JSON cannot encode a bigint"],
      [{ f: () => 1 }, "canonical JSON cannot encode a function"],
      [[undefined], "canonical JSON cannot encode undefined in an array"],
      [cyclic, "canonical JSON cannot encode a cycle"],
      [new Map(), "canonical JSON cannot encode a Map object"],
    ] as const) {
      expect(() => canonicalJson(bad)).toThrow(ProtocolError);
      expect(() => canonicalJson(bad)).toThrow(message);
    }
  });

  it("allows the same object twice when it is not a cycle", () => {
    const shared = { x: 1 };
    expect(canonicalJson({ a: shared, b: shared })).toBe('{"a":{"x":1},"b":{"x":1}}');
  });

  it("refuses absurd nesting instead of overflowing the stack", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 5000; i++) deep = [deep];
    expect(() => canonicalJson(deep)).toThrow(ProtocolError);
  });
});
