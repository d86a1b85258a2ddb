// The signed receipt a motebit_task result carries: its text is the receipt's JSON, then the identity tag.
import { stripIdentityTag, type ExecutionReceipt } from "../../src/protocol/index.js";

export function receiptOfResult(result: unknown): ExecutionReceipt {
  return JSON.parse(stripIdentityTag((result as { content: { text: string }[] }).content[0].text)) as ExecutionReceipt;
}
