// motebit-local checks signed tokens with node:crypto (local-stdio/src/serve/node-verify.ts): it must accept and
// refuse exactly what the core's WebCrypto check does, and like it answer false, never throw, on bad input.
import { describe, expect, it } from "vitest";
import { bytesToHex, createSigner, generateSeedHex, hexToBytes, utf8, verifySignature } from "../../../src/protocol/index.js";
import { nodeVerifySignature } from "../../../local-stdio/src/serve/node-verify.js";
import { vectors } from "../protocol/fixtures.js";

const nodeVerify = nodeVerifySignature();

async function both(publicKeyHex: unknown, msg: unknown, sig: unknown): Promise<[boolean, boolean]> {
  const args = [publicKeyHex, msg, sig] as [string, Uint8Array, Uint8Array];
  return [await nodeVerify(...args), await verifySignature(...args)];
}

describe("motebit-local's node:crypto Ed25519 check", () => {
  it("accepts the frozen vector signature", async () => {
    const f = vectors.frozen_signature;
    const pub = (await createSigner(f.seed_hex)).publicKeyHex;
    expect(await both(pub, utf8(f.message_utf8), hexToBytes(f.signature_hex))).toEqual([true, true]);
    expect(await both(pub.toUpperCase(), utf8(f.message_utf8), hexToBytes(f.signature_hex))).toEqual([true, true]);
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
