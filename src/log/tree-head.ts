// The signed tree head (docs/protocol.md §10): the log's size and root at a moment, signed as
// receipts are (canonical JSON without `signature`, Ed25519, base64url), so a head is checked with the receipt's key.
import { base64urlDecode, base64urlEncode } from "../protocol/base64url.js";
import { utf8 } from "../protocol/bytes.js";
import { canonicalJson } from "../protocol/canonical-json.js";
import { type Signer, verifySignature } from "../protocol/ed25519.js";
import { SUITE_RECEIPT } from "../protocol/suites.js";
import { isHash } from "./merkle.js";

export interface TreeHead {
  tree_size: number;
  root_hash: string;
  /** Epoch ms when it was signed. */
  timestamp: number;
  motebit_id: string;
  public_key: string;
  suite: typeof SUITE_RECEIPT;
  signature: string;
}

export async function signTreeHead(h: { treeSize: number; rootHash: string; timestamp: number; motebitId: string }, signer: Signer): Promise<TreeHead> {
  const body = { tree_size: h.treeSize, root_hash: h.rootHash, timestamp: h.timestamp, motebit_id: h.motebitId, public_key: signer.publicKeyHex, suite: SUITE_RECEIPT as typeof SUITE_RECEIPT };
  const signature = base64urlEncode(await signer.sign(utf8(canonicalJson(body))));
  return { ...body, signature };
}

/** Why `v` is not a well-formed tree head with a good signature under its own key, or null when it is. Never throws. */
export async function treeHeadProblem(v: unknown): Promise<string | null> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) return "a tree head must be a JSON object";
  const h = v as Record<string, unknown>;
  if (!Number.isSafeInteger(h.tree_size) || (h.tree_size as number) < 0) return "tree_size must be a non-negative integer";
  if (!isHash(h.root_hash)) return "root_hash must be 64 lowercase hex characters";
  if (!Number.isSafeInteger(h.timestamp)) return "timestamp must be an integer (epoch ms)";
  if (typeof h.motebit_id !== "string" || h.motebit_id === "") return "motebit_id must be a non-empty string";
  if (h.suite !== SUITE_RECEIPT) return `suite must be ${SUITE_RECEIPT}`;
  if (typeof h.public_key !== "string" || typeof h.signature !== "string") return "public_key and signature must be strings";
  const { signature, ...body } = h;
  let sig: Uint8Array;
  try {
    sig = base64urlDecode(signature as string);
  } catch {
    return "signature is not base64url";
  }
  return (await verifySignature(h.public_key, utf8(canonicalJson(body)), sig)) ? null : "the tree head's signature does not verify under its public_key";
}
