// A receipt as a leaf of the log: the RFC 8785 canonical JSON of the whole signed receipt, signature included.
import { canonicalJson } from "../protocol/canonical-json.js";
import { receiptCanonicalJson } from "../protocol/receipt.js";
import { leafHashOfText } from "./merkle.js";

/** The leaf of any receipt object, written afresh: what a verifier checks, whatever the object went through. */
export function receiptLeafHash(receipt: object): string {
  return leafHashOfText(canonicalJson(receipt));
}

/** The leaf of a receipt as signReceipt returned it (the ledger's append): from the text kept at its signing. */
export function signedReceiptLeafHash(receipt: object): string {
  return leafHashOfText(receiptCanonicalJson(receipt));
}
