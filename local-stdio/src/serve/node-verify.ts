// motebit-local's Ed25519 check for signed tokens: node:crypto's one-shot verify with a KeyObject kept per caller
// key. The same OpenSSL check WebCrypto makes in Node, but synchronous: no job handed to the thread pool and back
// for every request (the pool thread competes with the event loop for the same cores).
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { BoundedCache } from "../../../src/protocol/bounded-cache.js";
import type { VerifySignature } from "../../../src/protocol/index.js";

/** An Ed25519 public key as SPKI DER is this fixed header and the 32 raw bytes. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PUBLIC_KEY_RE = /^[0-9a-fA-F]{64}$/;

/** A verifier with its own bounded key cache (a caller's key is imported once, not per request). */
export function nodeVerifySignature(): VerifySignature {
  const keys = new BoundedCache<KeyObject>(512);
  return (publicKeyHex, msg, sig) => {
    // verifySignature's contract: any bad input is false, never a throw.
    if (typeof publicKeyHex !== "string" || !PUBLIC_KEY_RE.test(publicKeyHex)) return false;
    if (!(msg instanceof Uint8Array) || !(sig instanceof Uint8Array) || sig.length !== 64) return false;
    try {
      const cacheKey = publicKeyHex.toLowerCase();
      let key = keys.get(cacheKey);
      if (key === undefined) {
        key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(cacheKey, "hex")]), format: "der", type: "spki" });
        keys.set(cacheKey, key);
      }
      return verify(null, msg, key, sig);
    } catch {
      return false;
    }
  };
}
