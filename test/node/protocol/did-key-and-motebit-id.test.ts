import { describe, expect, it } from "vitest";
import {
  didKeyToPublicKey, isSovereignIdFor, ProtocolError, publicKeyToDidKey, sovereignMotebitId,
} from "../../../src/protocol/index.js";
import { vectors } from "./fixtures.js";

describe("did:key", () => {
  it("matches the vectors both ways", () => {
    for (const k of Object.values(vectors.keys)) {
      expect(publicKeyToDidKey(k.public_key_hex)).toBe(k.did_key);
      expect(k.did_key.startsWith("did:key:z6Mk")).toBe(true);
      expect(didKeyToPublicKey(k.did_key)).toBe(k.public_key_hex);
    }
  });

  it("refuses what is not an Ed25519 did:key", () => {
    expect(() => didKeyToPublicKey("did:web:example.com")).toThrow('did:key must start with "did:key:z"');
    expect(() => didKeyToPublicKey("did:key:z0OIl")).toThrow('invalid base58btc character "0"');
    // a secp256k1 did:key (multicodec 0xe7)
    expect(() => didKeyToPublicKey("did:key:zQ3shokFTS3brHcDQrn82RUDfCZESWL1ZdCEJwekUDPQiYBme")).toThrow(
      "did:key is not an Ed25519 public key (expected multicodec 0xed01 and 32 key bytes)",
    );
    expect(() => didKeyToPublicKey("did:key:z" + "1".repeat(200))).toThrow("did:key is too long for an Ed25519 key");
    expect(() => didKeyToPublicKey(vectors.keys.fill_01.did_key.slice(0, -1))).toThrow(ProtocolError);
    expect(() => publicKeyToDidKey("abcd")).toThrow(ProtocolError);
  });
});

describe("sovereign motebit_id", () => {
  it("commits to the key as in the vectors", async () => {
    for (const k of Object.values(vectors.keys)) {
      expect(await sovereignMotebitId(k.public_key_hex)).toBe(k.sovereign_motebit_id);
      expect(await isSovereignIdFor(k.sovereign_motebit_id, k.public_key_hex)).toBe(true);
    }
  });

  it("sets UUID version 8 and the RFC variant", async () => {
    expect(await sovereignMotebitId(vectors.keys.fill_01.public_key_hex)).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it("is false for other keys, other ids and garbage", async () => {
    const { demo_seq_01_20: a, fill_01: b } = vectors.keys;
    expect(await isSovereignIdFor(a.sovereign_motebit_id, b.public_key_hex)).toBe(false);
    expect(await isSovereignIdFor(crypto.randomUUID(), a.public_key_hex)).toBe(false);
    expect(await isSovereignIdFor(a.sovereign_motebit_id.toUpperCase(), a.public_key_hex)).toBe(false);
    expect(await isSovereignIdFor(a.sovereign_motebit_id, "nothex")).toBe(false);
    expect(await isSovereignIdFor(42 as unknown as string, a.public_key_hex)).toBe(false);
  });
});
