// motebit-local's Ed25519 check for signed tokens: node:crypto's verify with a KeyObject kept per caller key — the
// same OpenSSL check WebCrypto makes in Node, without WebCrypto's per-call work on the event loop (algorithm and
// key-usage checks, buffer copies). Where it runs depends on what else the process is doing: handing the check to
// libuv's thread pool and back costs more CPU than the check itself when nothing else is waiting (one request at a
// time: 263 against 82 µs, bench/node-host/in-process.ts), and pays only when the event loop has other requests to get
// on with meanwhile (8 at a time over HTTP: +163 against +191 µs). So the check runs synchronously unless `busy()`.
import { createPublicKey, verify, type KeyObject } from "node:crypto";
import { BoundedCache, type VerifySignature } from "motebit-edge/core";

/** An Ed25519 public key as SPKI DER is this fixed header and the 32 raw bytes. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");
const PUBLIC_KEY_RE = /^[0-9a-fA-F]{64}$/;

/**
 * A verifier with its own bounded key cache (a caller's key is imported once, not per request). `busy`: whether other
 * requests are in flight, so that the check goes to the thread pool; by default never (always synchronous).
 */
export function nodeVerifySignature(busy: () => boolean = () => false): VerifySignature {
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
  return (publicKeyHex, msg, sig) => {
    // verifySignature's contract: any bad input is false, never a throw.
    if (typeof publicKeyHex !== "string" || !PUBLIC_KEY_RE.test(publicKeyHex)) return false;
    if (!(msg instanceof Uint8Array) || !(sig instanceof Uint8Array) || sig.length !== 64) return false;
    let key: KeyObject;
    try {
      key = keyFor(publicKeyHex);
    } catch {
      return false;
    }
    if (!busy()) {
      try {
        return verify(null, msg, key, sig);
      } catch {
        return false;
      }
    }
    return new Promise<boolean>((resolve) => {
      try {
        verify(null, msg, key, sig, (err, ok) => resolve(err === null && ok));
      } catch {
        resolve(false);
      }
    });
  };
}
