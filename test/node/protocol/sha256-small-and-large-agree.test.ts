// sha256Hex hashes small inputs in JS and large ones through WebCrypto: both sides of the switch give the standard digest.
import { createHash } from "node:crypto";
import { expect, it } from "vitest";
import { INLINE_SHA256_MAX_BYTES, sha256Hex } from "../../../src/protocol/index.js";

const reference = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

it("gives the FIPS 180-2 digests of '' and 'abc'", async () => {
  expect(await sha256Hex("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  expect(await sha256Hex("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
});

it("agrees with node:crypto just under, at and just over the inline limit, for strings and bytes", async () => {
  for (const n of [INLINE_SHA256_MAX_BYTES - 1, INLINE_SHA256_MAX_BYTES, INLINE_SHA256_MAX_BYTES + 1, 4 * INLINE_SHA256_MAX_BYTES]) {
    const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 31 + 7) & 0xff);
    expect(await sha256Hex(bytes), `${n} bytes`).toBe(reference(bytes));
    const text = "é".repeat(Math.ceil(n / 2)); // two UTF-8 bytes a character: hashed as UTF-8, not UTF-16
    expect(await sha256Hex(text), `${n}-byte string`).toBe(reference(new TextEncoder().encode(text)));
  }
});
