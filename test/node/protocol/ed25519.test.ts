import { describe, expect, it } from "vitest";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import {
  bytesToHex, createSigner, generateSeedHex, hexToBytes, ProtocolError, publicKeyFromSeed, utf8, verifySignature,
} from "../../../src/protocol/index.js";
import { vectors } from "./fixtures.js";

ed.hashes.sha512 = sha512;

describe("Ed25519 over WebCrypto", () => {
  it("derives the vector public keys from seeds", async () => {
    for (const k of Object.values(vectors.keys)) expect(await publicKeyFromSeed(k.seed_hex)).toBe(k.public_key_hex);
  });

  it("reproduces the frozen signature", async () => {
    const f = vectors.frozen_signature;
    const signer = await createSigner(f.seed_hex);
    const sig = await signer.sign(utf8(f.message_utf8));
    expect(bytesToHex(sig)).toBe(f.signature_hex);
    expect(await verifySignature(signer.publicKeyHex, utf8(f.message_utf8), sig)).toBe(true);
  });

  it("agrees with an independent implementation (@noble/ed25519) on random keys and messages", async () => {
    for (let i = 0; i < 20; i++) {
      const seed = generateSeedHex();
      const msg = crypto.getRandomValues(new Uint8Array(i * 7));
      const signer = await createSigner(seed);
      expect(signer.publicKeyHex).toBe(bytesToHex(ed.getPublicKey(hexToBytes(seed))));
      const sig = await signer.sign(msg);
      expect(bytesToHex(sig)).toBe(bytesToHex(ed.sign(msg, hexToBytes(seed))));
      expect(await verifySignature(signer.publicKeyHex, msg, sig)).toBe(true);
    }
  });

  it("rejects expanded 64-byte keys and bad seeds with clear errors", async () => {
    await expect(createSigner("00".repeat(64))).rejects.toThrow(
      "private key is a 64-byte expanded key; expected the 32-byte Ed25519 seed (64 hex chars)",
    );
    await expect(createSigner("zz".repeat(32))).rejects.toThrow(ProtocolError);
    await expect(createSigner("abc")).rejects.toThrow(/private key must be a 32-byte Ed25519 seed as 64 hex chars/);
    await expect(createSigner(undefined as unknown as string)).rejects.toThrow("private key must be a hex string");
  });

  it("verifySignature is false, never a throw, for any bad input", async () => {
    const f = vectors.frozen_signature;
    const pub = vectors.keys.demo_seq_01_20.public_key_hex;
    const sig = hexToBytes(f.signature_hex);
    const msg = utf8(f.message_utf8);
    const signerPub = await publicKeyFromSeed(f.seed_hex);
    expect(await verifySignature(pub, msg, sig)).toBe(false); // wrong key
    expect(await verifySignature(signerPub, utf8("motebiu"), sig)).toBe(false);
    expect(await verifySignature(signerPub, msg, sig.subarray(0, 63))).toBe(false);
    expect(await verifySignature("zz".repeat(32), msg, sig)).toBe(false);
    expect(await verifySignature("00", msg, sig)).toBe(false);
    expect(await verifySignature(null as unknown as string, msg, sig)).toBe(false);
    expect(await verifySignature(signerPub, "motebit" as unknown as Uint8Array, sig)).toBe(false);
    expect(await verifySignature(signerPub, msg, f.signature_hex as unknown as Uint8Array)).toBe(false);
    // a y-coordinate that is not on the curve
    expect(await verifySignature("ff".repeat(32), msg, sig)).toBe(false);
  });

  it("caches signers per seed and keeps the private key non-extractable", async () => {
    const seed = generateSeedHex();
    const a = await createSigner(seed);
    const b = await createSigner(seed);
    expect(a).toBe(b);
    expect(Object.isFrozen(a)).toBe(true);
    expect(JSON.stringify(a)).not.toContain(seed);
  });
});
