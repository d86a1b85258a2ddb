// motebit-local's Ed25519 check for signed tokens: node:crypto's verify with a KeyObject kept per caller key. The
// same OpenSSL check WebCrypto makes in Node, without WebCrypto's per-call work on the event loop (algorithm and
// key-usage checks, buffer copies); like it, the check itself runs on libuv's thread pool, so on a machine with a
// spare core it overlaps the event loop's work on other requests instead of adding to it.
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { BoundedCache, type VerifySignature } from "motebit-edge/core";

/** An Ed25519 public key as SPKI DER is this fixed header and the 32 raw bytes. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PUBLIC_KEY_RE = /^[0-9a-fA-F]{64}$/;

/** A verifier with its own bounded key cache (a caller's key is imported once, not per request). */
export function nodeVerifySignature(): VerifySignature {
  const keys = new BoundedCache<KeyObject>(512);
  const keyFor = (publicKeyHex: string): KeyObject => {
    const cacheKey = publicKeyHex.toLowerCase();
    let key = keys.get(cacheKey);
    if (key === undefined) {
      key = createPublicKey({ key: Buffer.concat([SPKI_PREFIX, Buffer.from(cacheKey, "hex")]), format: "der", type: "spki" });
      keys.set(cacheKey, key);
    }
    return key;
  };
  return async (publicKeyHex, msg, sig) => {
    // verifySignature's contract: any bad input is false, never a throw.
    if (typeof publicKeyHex !== "string" || !PUBLIC_KEY_RE.test(publicKeyHex)) return false;
    if (!(msg instanceof Uint8Array) || !(sig instanceof Uint8Array) || sig.length !== 64) return false;
    try {
      const key = keyFor(publicKeyHex);
      return await new Promise<boolean>((resolve) => verify(null, msg, key, sig, (err, ok) => resolve(err === null && ok)));
    } catch {
      return false;
    }
  };
}
