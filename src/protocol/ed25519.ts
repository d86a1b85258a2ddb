import { base64urlDecode } from "./base64url.js";
import { BoundedCache } from "../bounded/bounded-cache.js";
import { bytesToHex, hexToBytes } from "./bytes.js";
import { ProtocolError } from "./errors.js";

// A bare 32-byte seed becomes PKCS#8 by prepending this fixed DER header (docs/protocol.md §1).
const PKCS8_PREFIX = hexToBytes("302e020100300506032b657004220420");
const ED25519 = { name: "Ed25519" } as const;
const PUBLIC_KEY_RE = /^[0-9a-fA-F]{64}$/;

/**
 * An Ed25519 check, as a host may supply its own (motebit-local: node:crypto with a key object kept per key). The
 * contract is verifySignature's: any bad input is simply `false`, never a throw.
 */
export type VerifySignature = (publicKeyHex: string, msg: Uint8Array, sig: Uint8Array) => boolean | Promise<boolean>;

export interface Signer {
  readonly publicKeyHex: string;
  sign(msg: Uint8Array): Promise<Uint8Array>;
}

/**
 * How a host turns a seed into its Signer, as a host may supply its own (motebit-local: node:crypto, which signs
 * without WebCrypto's thread-pool round trip). createSigner is the default; a factory must reject what it rejects.
 */
export type SignerFactory = (seedHex: string) => Promise<Signer>;

const publicKeys = new BoundedCache<Promise<CryptoKey>>(512);
const signers = new BoundedCache<Promise<Signer>>(16);

export function generateSeedHex(): string {
  return bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
}

function seedBytes(seedHex: string): Uint8Array<ArrayBuffer> {
  if (typeof seedHex !== "string") throw new ProtocolError("private key must be a hex string");
  if (seedHex.length === 128) {
    throw new ProtocolError("private key is a 64-byte expanded key; expected the 32-byte Ed25519 seed (64 hex chars)");
  }
  // One sentence each, saying what is wrong, so a host can name its own setting in place of "private key".
  if (seedHex.length !== 64) throw new ProtocolError(`${SEED_RULE}, got ${seedHex.length} chars`);
  if (!/^[0-9a-fA-F]*$/.test(seedHex)) throw new ProtocolError(`${SEED_RULE}, got a non-hex character`);
  return hexToBytes(seedHex, 32);
}

const SEED_RULE = "private key must be a 32-byte Ed25519 seed as 64 hex chars";

/** The seed's PKCS#8 DER, for a host's own signer (throws ProtocolError as createSigner does). The caller wipes it. */
export function ed25519Pkcs8(seedHex: string): Uint8Array<ArrayBuffer> {
  return pkcs8(seedBytes(seedHex));
}

function pkcs8(seed: Uint8Array): Uint8Array<ArrayBuffer> {
  const der = new Uint8Array(PKCS8_PREFIX.length + 32);
  der.set(PKCS8_PREFIX);
  der.set(seed, PKCS8_PREFIX.length);
  return der;
}

async function buildSigner(seed: Uint8Array): Promise<Signer> {
  const der = pkcs8(seed);
  // The public key comes from the JWK "x" of a throwaway extractable import (works in Node and workerd);
  // the signing key itself is imported non-extractable.
  const extractable = await crypto.subtle.importKey("pkcs8", der, ED25519, true, ["sign"]);
  const jwk = await crypto.subtle.exportKey("jwk", extractable);
  const publicKeyHex = bytesToHex(base64urlDecode(jwk.x ?? ""));
  if (publicKeyHex.length !== 64) throw new ProtocolError("could not derive the Ed25519 public key");
  const key = await crypto.subtle.importKey("pkcs8", der, ED25519, false, ["sign"]);
  der.fill(0);
  return Object.freeze({
    publicKeyHex,
    async sign(msg: Uint8Array): Promise<Uint8Array> {
      return new Uint8Array(await crypto.subtle.sign(ED25519, key, msg as Uint8Array<ArrayBuffer>));
    },
  });
}

/** A signer for a 32-byte seed (64 hex). Throws ProtocolError on bad hex or a 64-byte expanded key. Cached per seed. */
export async function createSigner(seedHex: string): Promise<Signer> {
  const seed = seedBytes(seedHex);
  const cacheKey = bytesToHex(seed);
  let p = signers.get(cacheKey);
  if (!p) {
    p = buildSigner(seed);
    signers.set(cacheKey, p);
    p.catch(() => signers.delete(cacheKey));
  }
  return p;
}

export async function publicKeyFromSeed(seedHex: string): Promise<string> {
  return (await createSigner(seedHex)).publicKeyHex;
}

function importPublicKey(publicKeyHex: string): Promise<CryptoKey> {
  const cacheKey = publicKeyHex.toLowerCase();
  let p = publicKeys.get(cacheKey);
  if (!p) {
    p = crypto.subtle.importKey("raw", hexToBytes(cacheKey, 32), ED25519, false, ["verify"]);
    publicKeys.set(cacheKey, p);
    p.catch(() => publicKeys.delete(cacheKey));
  }
  return p;
}

/** Pure Ed25519 (RFC 8032) verification. Any bad input (wrong types, lengths, invalid point) is simply `false`. */
export async function verifySignature(publicKeyHex: string, msg: Uint8Array, sig: Uint8Array): Promise<boolean> {
  if (typeof publicKeyHex !== "string" || !PUBLIC_KEY_RE.test(publicKeyHex)) return false;
  if (!(msg instanceof Uint8Array) || !(sig instanceof Uint8Array) || sig.length !== 64) return false;
  try {
    const key = await importPublicKey(publicKeyHex);
    return await crypto.subtle.verify(ED25519, key, sig as Uint8Array<ArrayBuffer>, msg as Uint8Array<ArrayBuffer>);
  } catch {
    return false;
  }
}
