// motebit-local's Ed25519 signer: node:crypto's one-shot sign with a KeyObject made once from the seed. WebCrypto's
// sign in Node is a thread-pool job plus its algorithm and key-usage checks on the event loop — about twice the CPU
// of this synchronous call for a receipt-sized message (bench:agent), and a receipt is signed on every task.
import { createPrivateKey, sign } from "node:crypto";
import { createSigner, ed25519Pkcs8, type Signer, type SignerFactory } from "motebit-edge/core";

export const nodeSigner: SignerFactory = async (seedHex) => {
  // createSigner checks the seed (its errors are the ones a host reports) and derives the public key.
  const { publicKeyHex } = await createSigner(seedHex);
  const der = ed25519Pkcs8(seedHex);
  const key = createPrivateKey({ key: Buffer.from(der.buffer, der.byteOffset, der.byteLength), format: "der", type: "pkcs8" });
  der.fill(0);
  const signer: Signer = {
    publicKeyHex,
    sign: async (msg) => new Uint8Array(sign(null, msg, key)),
  };
  return Object.freeze(signer);
};
