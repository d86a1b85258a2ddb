import { describe, expect, it } from "vitest";
import { base64urlDecodeUnpadded, base64urlEncode } from "../../../src/protocol/index.js";

describe("base64urlDecodeUnpadded: the one spelling we emit", () => {
  it("decodes what base64urlEncode wrote and refuses the same bytes padded", () => {
    const sig = new Uint8Array(64).map((_, i) => i * 7);
    const s = base64urlEncode(sig);
    expect(base64urlDecodeUnpadded(s)).toEqual(sig);
    expect(() => base64urlDecodeUnpadded(`${s}==`)).toThrow("base64url string is not canonical (padding)");
    expect(() => base64urlDecodeUnpadded(`${s}=`)).toThrow();
  });
});
