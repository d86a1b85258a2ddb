// A receipt as a leaf of the log: the RFC 8785 canonical JSON of the whole signed receipt, signature included.
import { canonicalJson } from "../protocol/canonical-json.js";
import { utf8 } from "../protocol/bytes.js";
import { leafHash } from "./merkle.js";

export function receiptLeafHash(receipt: object): string {
  return leafHash(utf8(canonicalJson(receipt)));
}
