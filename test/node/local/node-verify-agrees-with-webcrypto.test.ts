// motebit-local checks signed tokens with node:crypto (local-stdio/src/serve/node-verify.ts), synchronously or, when
// other requests are in flight, on the thread pool: either way it must accept and refuse exactly what the core's
// WebCrypto check does, and like it answer false, never throw, on bad input.
import { describe, expect, it } from "vitest";
import { bytesToHex, createSigner, generateSeedHex, hexToBytes, utf8, verifySignature } from "../../../src/protocol/index.js";
import { nodeVerifySignature } from "../../../local-stdio/src/serve/node-verify.js";
import { vectors } from "../protocol/fixtures.js";

const inline = nodeVerifySignature();
const pooled = nodeVerifySignature(() => true);

/** WebCrypto's verdict, after checking that both node:crypto forms give the same one. */
async function both(publicKeyHex: unknown, msg: unknown, sig: unknown): Promise<[boolean, boolean]> {
  const args = [publicKeyHex, msg, sig] as [string, Uint8Array, Uint8Array];
  const sync = inline(...args);
  expect(typeof sync).toBe("boolean");
  expect(await pooled(...args)).toBe(sync);
  return [sync as boolean, await verifySignature(...args)];
}

describe("motebit-local's node:crypto Ed25519 check", () => {
  it("accepts the frozen vector signature", async () => {
    const f = vectors.frozen_signature;
    const pub = (await createSigner(f.seed_hex)).publicKeyHex;
    expect(await both(pub, utf8(f.message_utf8), hexToBytes(f.signature_hex))).toEqual([true, true]);
    expect(await both(pub.toUpperCase(), utf8(f.message_utf8), hexToBytes(f.signature_hex))).toEqual([true, true]);
  });

  it("checks at once when not busy and on the thread pool when busy", async () => {
    const signer = await createSigner(generateSeedHex());
    const msg = utf8("one request");
    const sig = await signer.sign(msg);
    expect(inline(signer.publicKeyHex, msg, sig)).toBe(true);
    const viaPool = pooled(signer.publicKeyHex, msg, sig);
    expect(viaPool).toBeInstanceOf(Promise);
    expect(await viaPool).toBe(true);
  });

  it("agrees with WebCrypto on random keys, messages, and each kind of tampering", async () => {
    for (let i = 0; i < 20; i++) {
      const signer = await createSigner(generateSeedHex());
      const other = await createSigner(generateSeedHex());
      const msg = crypto.getRandomValues(new Uint8Array(1 + i * 13));
      const sig = await signer.sign(msg);
      expect(await both(signer.publicKeyHex, msg, sig)).toEqual([true, true]);
      const badMsg = msg.slice();
      badMsg[i % badMsg.length] ^= 1;
      expect(await both(signer.publicKeyHex, badMsg, sig)).toEqual([false, false]);
      const badSig = sig.slice();
      badSig[i % 64] ^= 0x80;
      expect(await both(signer.publicKeyHex, msg, badSig)).toEqual([false, false]);
      expect(await both(other.publicKeyHex, msg, sig)).toEqual([false, false]);
    }
  });

  it("answers false, without throwing, for keys and signatures that are not Ed25519's", async () => {
    const signer = await createSigner(generateSeedHex());
    const msg = utf8("hello");
    const sig = await signer.sign(msg);
    const cases: [unknown, unknown, unknown][] = [
      [signer.publicKeyHex.slice(2), msg, sig],
      ["zz" + signer.publicKeyHex.slice(2), msg, sig],
      [42, msg, sig],
      [signer.publicKeyHex, "hello", sig],
      [signer.publicKeyHex, msg, sig.slice(0, 63)],
      [signer.publicKeyHex, msg, bytesToHex(sig)],
      // Not a point of the curve (y = 2): no signature can check out under it.
      ["02" + "00".repeat(31), msg, sig],
    ];
    for (const [pub, m, s] of cases) expect(await both(pub, m, s)).toEqual([false, false]);
  });
});
