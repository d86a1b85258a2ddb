// motebit-local signs receipts with node:crypto (local-stdio/src/serve/node-sign.ts): Ed25519 is deterministic, so
// its signatures must be byte-for-byte WebCrypto's, the golden vector's included, and it must refuse the seeds
// createSigner refuses with the same words (a host names its own setting in them).
import { describe, expect, it } from "vitest";
import { bytesToHex, createSigner, generateSeedHex, utf8 } from "../../../src/protocol/index.js";
import { nodeSigner } from "../../../local-stdio/src/serve/node-sign.js";
import { vectors } from "../protocol/fixtures.js";

describe("motebit-local's node:crypto signer", () => {
  it("makes the frozen vector's signature from its seed", async () => {
    const f = vectors.frozen_signature;
    const signer = await nodeSigner(f.seed_hex);
    expect(signer.publicKeyHex).toBe((await createSigner(f.seed_hex)).publicKeyHex);
    expect(bytesToHex(await signer.sign(utf8(f.message_utf8)))).toBe(f.signature_hex.toLowerCase());
  });

  it("signs exactly as WebCrypto does for random seeds and messages", async () => {
    for (let i = 0; i < 20; i++) {
      const seed = generateSeedHex();
      const [ours, web] = [await nodeSigner(seed), await createSigner(seed)];
      const msg = crypto.getRandomValues(new Uint8Array(i * 37));
      expect(ours.publicKeyHex).toBe(web.publicKeyHex);
      expect(bytesToHex(await ours.sign(msg))).toBe(bytesToHex(await web.sign(msg)));
    }
  });

  it("refuses a bad seed with createSigner's message", async () => {
    for (const seed of ["00".repeat(31), "zz".repeat(32), "00".repeat(64)]) {
      const expected = await createSigner(seed).then(() => "accepted", (e: Error) => e.message);
      await expect(nodeSigner(seed)).rejects.toThrow(expected);
      expect(expected).toMatch(/^private key/);
    }
  });
});
