// The golden vectors, checked inside workerd: the protocol core must behave exactly as it does in Node.
/// <reference types="vite/client" />
import { describe, expect, it } from "vitest";
import vectors from "../fixtures/vectors/vectors.json";
import identityFile from "../fixtures/vectors/identity-minimal.md?raw";
import {
  bytesToHex, canonicalJson, createSigner, didKeyToPublicKey, emitIdentityYaml, hexToBytes, mintBearerToken, parseIdentityFile,
  publicKeyFromSeed, publicKeyToDidKey, sha256Hex, signDelegationToken, signIdentityFile, signReceipt, sovereignMotebitId, utf8,
  verifyBearerToken, verifyDelegationToken, verifyIdentityFile, verifyReceipt, verifySignature,
} from "../../src/protocol/index.js";

const demo = vectors.keys.demo_seq_01_20;
const fill = vectors.keys.fill_01;

describe("protocol vectors in workerd", () => {
  it("derives public keys, did:key and sovereign ids from seeds (WebCrypto JWK export works here)", async () => {
    for (const k of Object.values(vectors.keys)) {
      expect(await publicKeyFromSeed(k.seed_hex)).toBe(k.public_key_hex);
      expect(publicKeyToDidKey(k.public_key_hex)).toBe(k.did_key);
      expect(didKeyToPublicKey(k.did_key)).toBe(k.public_key_hex);
      expect(await sovereignMotebitId(k.public_key_hex)).toBe(k.sovereign_motebit_id);
      expect(await sha256Hex(hexToBytes(k.public_key_hex))).toBe(k.sha256_of_pubkey);
    }
  });

  it("reproduces the frozen signature and verifies it", async () => {
    const f = vectors.frozen_signature;
    const signer = await createSigner(f.seed_hex);
    const sig = await signer.sign(utf8(f.message_utf8));
    expect(bytesToHex(sig)).toBe(f.signature_hex);
    expect(await verifySignature(signer.publicKeyHex, utf8(f.message_utf8), sig)).toBe(true);
    expect(await verifySignature(signer.publicKeyHex, utf8("motebiT"), sig)).toBe(false);
  });

  it("verifies and re-signs the minimal receipt byte for byte", async () => {
    const { receipt, canonical } = vectors.minimal_receipt;
    const { signature, public_key: _p, suite: _s, ...body } = receipt;
    expect(canonicalJson({ ...body, public_key: receipt.public_key, suite: receipt.suite })).toBe(canonical);
    const verdict = await verifyReceipt(receipt, { checkResultHash: true });
    expect(verdict).toMatchObject({ valid: true, signer: demo.did_key, sovereign: true, errors: [] });
    const signed = await signReceipt(body as Parameters<typeof signReceipt>[0], await createSigner(demo.seed_hex));
    expect(signed.signature).toBe(signature);
    expect((await verifyReceipt({ ...receipt, result: "x" })).valid).toBe(false);
  });

  it("checks the bearer token vectors", async () => {
    const t = vectors.tokens;
    const ok = await verifyBearerToken(t.valid_until_2100.token, demo.public_key_hex);
    expect(ok).toEqual({ ok: true, claims: t.valid_until_2100.verify_now });
    expect(await verifyBearerToken(t.valid_until_2100.token, fill.public_key_hex)).toEqual({ ok: false, reason: "signature_invalid" });
    expect(await verifyBearerToken(t.expired.token, demo.public_key_hex)).toEqual({ ok: false, reason: "expired" });
    expect(await verifyBearerToken(t.missing_suite_rejected.token, demo.public_key_hex)).toEqual({ ok: false, reason: "suite_unsupported" });
    const input = t.valid_until_2100.input_payload;
    const minted = await mintBearerToken({ ...input, ttlMs: input.exp - input.iat }, await createSigner(demo.seed_hex));
    expect(minted).toBe(t.valid_until_2100.token);
  });

  it("checks the delegation token vector", async () => {
    const d = vectors.delegation;
    const verdict = await verifyDelegationToken(d.json_arg, { delegateId: demo.sovereign_motebit_id, requiredCapabilities: ["web_search"] });
    expect(verdict.ok).toBe(true);
    const { suite: _s, signature: _g, ...body } = d.token;
    expect(JSON.stringify(await signDelegationToken(body, await createSigner(fill.seed_hex)))).toBe(d.json_arg);
    expect(await verifyDelegationToken(d.json_arg, { delegateId: "someone-else" })).toEqual({
      ok: false, error: "Denied: delegation token is not for this motebit",
    });
  });

  it("verifies the identity file, round-trips its YAML and re-signs it byte for byte", async () => {
    const verdict = await verifyIdentityFile(identityFile);
    expect(verdict).toMatchObject({ valid: true, signer: vectors.identity_file.expected_did, sovereign: true, errors: [] });
    expect((await verifyIdentityFile(identityFile.replace(/\n/g, "\r\n"))).valid).toBe(true);
    const parsed = parseIdentityFile(identityFile);
    expect(emitIdentityYaml(parsed.doc)).toBe(parsed.yaml);
    expect(await signIdentityFile(parsed.doc, await createSigner(vectors.identity_file.signer_seed_hex))).toBe(identityFile);
  });
});
