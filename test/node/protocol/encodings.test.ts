import { describe, expect, it } from "vitest";
import {
  base64urlDecode, base64urlEncode, bytesToHex, constantTimeEqual, fromUtf8, hexToBytes, ProtocolError, randomHex, utf8,
} from "../../../src/protocol/index.js";

describe("hex", () => {
  it("encodes lowercase and round-trips", () => {
    const b = new Uint8Array([0, 1, 0xab, 0xff]);
    expect(bytesToHex(b)).toBe("0001abff");
    expect(hexToBytes("0001abff")).toEqual(b);
    expect(hexToBytes("0001ABFF")).toEqual(b);
  });

  it("is strict, with messages that name the problem", () => {
    expect(() => hexToBytes("abc")).toThrow("hex string has odd length 3");
    expect(() => hexToBytes("zz")).toThrow("hex string contains a non-hex character");
    expect(() => hexToBytes("0x00")).toThrow(ProtocolError);
    expect(() => hexToBytes(" 00")).toThrow(ProtocolError);
    expect(() => hexToBytes("00", 32)).toThrow("expected 32 bytes (64 hex chars), got 2 chars");
    expect(() => hexToBytes(42 as unknown as string)).toThrow("expected a hex string, got number");
  });

  it("randomHex gives fresh lowercase hex of the asked length", () => {
    const a = randomHex(16);
    expect(a).toMatch(/^[0-9a-f]{32}$/);
    expect(randomHex(16)).not.toBe(a);
  });
});

describe("base64url", () => {
  it("encodes unpadded and decodes padded or unpadded", () => {
    for (let n = 0; n < 40; n++) {
      const b = crypto.getRandomValues(new Uint8Array(n));
      const s = base64urlEncode(b);
      expect(s).toBe(Buffer.from(b).toString("base64url"));
      expect(base64urlDecode(s)).toEqual(b);
      const padded = s + "=".repeat((4 - (s.length % 4)) % 4);
      expect(base64urlDecode(padded)).toEqual(b);
    }
  });

  it("refuses other alphabets, bad padding and impossible lengths", () => {
    expect(() => base64urlDecode("ab+c")).toThrow("base64url string has an invalid character at position 2");
    expect(() => base64urlDecode("ab/c")).toThrow(ProtocolError);
    expect(() => base64urlDecode("ab c")).toThrow(ProtocolError);
    expect(() => base64urlDecode("abcde")).toThrow("base64url string has an impossible length");
    expect(() => base64urlDecode("abc==")).toThrow("base64url string has wrong padding");
    expect(() => base64urlDecode("ab=c")).toThrow(ProtocolError);
    expect(() => base64urlDecode("é")).toThrow(ProtocolError);
  });

  it("refuses non-canonical spellings (non-zero trailing bits), so a signature has exactly one encoding", () => {
    expect(base64urlDecode("AA")).toEqual(new Uint8Array([0]));
    expect(() => base64urlDecode("AB")).toThrow("base64url string is not canonical (non-zero trailing bits)");
    expect(() => base64urlDecode("AAB")).toThrow(ProtocolError);
  });
});

describe("utf8 and constant-time compare", () => {
  it("decodes UTF-8 fatally", () => {
    expect(fromUtf8(utf8("héllo 😀"))).toBe("héllo 😀");
    expect(() => fromUtf8(new Uint8Array([0xff, 0xfe]))).toThrow("bytes are not valid UTF-8");
  });

  it("compares secrets exactly", () => {
    expect(constantTimeEqual("secret-token", "secret-token")).toBe(true);
    expect(constantTimeEqual("secret-tokem", "secret-token")).toBe(false);
    expect(constantTimeEqual("secret", "secret-token")).toBe(false);
    expect(constantTimeEqual("", "x")).toBe(false);
    expect(constantTimeEqual("x", "")).toBe(false);
    expect(constantTimeEqual("", "")).toBe(true);
  });
});
