import { base58btcDecode, base58btcEncode } from "./base58.js";
import { BoundedCache } from "../bounded/bounded-cache.js";
import { bytesToHex, hexToBytes } from "./bytes.js";
import { ProtocolError } from "./errors.js";

const PREFIX = "did:key:z";
// multicodec varint for ed25519-pub
const ED25519_PUB = [0xed, 0x01];
const dids = new BoundedCache<string>(512);

/** "did:key:z6Mk…" for a 32-byte Ed25519 public key (64 hex). Throws ProtocolError on a bad key. */
export function publicKeyToDidKey(pubHex: string): string {
  const cached = typeof pubHex === "string" ? dids.get(pubHex) : undefined;
  if (cached) return cached;
  const pub = hexToBytes(pubHex, 32);
  const bytes = new Uint8Array(34);
  bytes.set(ED25519_PUB);
  bytes.set(pub, 2);
  const did = PREFIX + base58btcEncode(bytes);
  dids.set(pubHex, did);
  return did;
}

/** The 64-hex Ed25519 public key inside a did:key. Throws ProtocolError for anything else. */
export function didKeyToPublicKey(did: string): string {
  if (typeof did !== "string" || !did.startsWith(PREFIX)) throw new ProtocolError('did:key must start with "did:key:z"');
  if (did.length > 64) throw new ProtocolError("did:key is too long for an Ed25519 key");
  const bytes = base58btcDecode(did.slice(PREFIX.length));
  if (bytes.length !== 34 || bytes[0] !== ED25519_PUB[0] || bytes[1] !== ED25519_PUB[1]) {
    throw new ProtocolError("did:key is not an Ed25519 public key (expected multicodec 0xed01 and 32 key bytes)");
  }
  const hex = bytesToHex(bytes.subarray(2));
  // A canonical did:key has one spelling; refuse leading-zero or other re-encodings.
  if (publicKeyToDidKey(hex) !== did) throw new ProtocolError("did:key is not canonically encoded");
  return hex;
}
