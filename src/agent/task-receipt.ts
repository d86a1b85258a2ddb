// The one receipt step of a task, direct or AI mode: what happened, built into an ExecutionReceipt with
// relay_task_id and delegated_scope inside the signature (docs/protocol.md §4).
import type { Clock } from "../ports.js";
import { sha256Hex, signReceipt, type ExecutionReceipt, type Signer, type UnsignedReceipt } from "../protocol/index.js";
import { signingTraced } from "../telemetry/receipt-span.js";
import type { TraceScope } from "../telemetry/trace-scope.js";

export type InvocationOrigin = NonNullable<ExecutionReceipt["invocation_origin"]>;

export interface Outcome {
  status: ExecutionReceipt["status"];
  result: string;
  toolsUsed: string[];
  /** AI mode: the memories the turn formed and the receipt counts, kept with the outcome. */
  memoriesFormed?: number;
}

export const failed = (result: string, toolsUsed: string[] = []): Outcome => ({ status: "failed", result, toolsUsed });

/** What a receipt says besides the outcome: the task, who signs, and what was bound to it. */
export interface ReceiptFields {
  prompt: string;
  signer: Signer;
  motebitId: string;
  deviceId: string;
  relayTaskId?: string;
  delegatedScope?: string;
  /** Receipt timestamps. */
  clock: Clock;
  /** Default "agent-to-agent". */
  invocationOrigin?: InvocationOrigin;
  /** Default 0 (peers never form owner memories). */
  memoriesFormed?: number;
  /** A line the receipt's result starts with (e.g. why the relay's task record could not be read). */
  note?: string;
  /** The task's span, when telemetry is on: the signing span hangs under it. */
  trace?: TraceScope;
}

/** The one place a task's receipt is built and signed: relay_task_id and delegated_scope inside the signature. */
export function signTaskReceipt(i: ReceiptFields, outcome: Outcome, submittedAt: number): Promise<ExecutionReceipt> {
  return signingTraced(i.trace, () => buildAndSign(i, outcome, submittedAt));
}

async function buildAndSign(i: ReceiptFields, outcome: Outcome, submittedAt: number): Promise<ExecutionReceipt> {
  const completedAt = i.clock.now();
  const result = i.note === undefined ? outcome.result : `${i.note}\n${outcome.result}`;
  const [promptHash, resultHash] = await Promise.all([sha256Hex(i.prompt), sha256Hex(result)]);
  const body: UnsignedReceipt = {
    task_id: crypto.randomUUID(),
    motebit_id: i.motebitId,
    device_id: i.deviceId,
    submitted_at: submittedAt,
    completed_at: completedAt,
    status: outcome.status,
    result,
    tools_used: outcome.toolsUsed,
    memories_formed: i.memoriesFormed ?? 0,
    prompt_hash: promptHash,
    result_hash: resultHash,
    ...(i.relayTaskId !== undefined ? { relay_task_id: i.relayTaskId } : {}),
    ...(i.delegatedScope !== undefined ? { delegated_scope: i.delegatedScope } : {}),
    invocation_origin: i.invocationOrigin ?? "agent-to-agent",
  };
  return signReceipt(body, i.signer);
}
