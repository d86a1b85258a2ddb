// Signing a receipt as a span: the receipt's task id, result hash and status on it (what links a trace to the
// ledger and the transparency log), and the receipt counted by status. Never the prompt or the result text.
import { instrumentsOf } from "./instruments.js";
import { inSpan, type TraceScope } from "./trace-scope.js";

/** A signed receipt, as the span reads it. */
type Signed = { task_id: string; result_hash: string; status: string };

export function signingTraced<R extends Signed>(scope: TraceScope | undefined, sign: () => Promise<R>): Promise<R> {
  if (scope === undefined) return sign();
  return inSpan(scope, "sign_receipt", {}, sign, (r, span) => {
    span.setAttributes({ "motebit.receipt.task_id": r.task_id, "motebit.receipt.result_hash": r.result_hash, "motebit.receipt.status": r.status });
    instrumentsOf(scope.port).receiptsSigned.add(1, { "motebit.receipt.status": r.status });
  });
}
