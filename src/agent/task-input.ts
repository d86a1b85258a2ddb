// What a task runs with in either mode: the receipt's fields, the tools this caller may be served, the gate over
// them, the deadline, and the checks that can stop it.
import type { Admission } from "../policy/admission/admit.js";
import type { ServedTool } from "../tools/types.js";
import type { Outcome, ReceiptFields } from "./task-receipt.js";

export interface TaskInput extends ReceiptFields {
  /** The tools this caller may be served (already filtered for its transport). */
  tools: ServedTool[];
  /** The policy gate, bound to the caller and governance (task-gate.ts). */
  gate: (toolName: string) => Admission;
  /** The tool is aborted and the receipt says "timed out" after this many ms; the deadline uses a real timer. */
  timeoutMs: number;
  /** Cancels the task (client cancelled, session closed); the receipt says "Error: task cancelled". */
  signal?: AbortSignal;
  /** Re-checked before each tool step: why the caller may no longer have work run (its standing is gone), or null. */
  standing?: () => string | null;
  /**
   * An MCP task's run: the outcome an earlier run kept (signed as it is, nothing runs again), and where this run
   * keeps its own before signing, so a host killed while it signs resumes with it instead of a second run.
   */
  checkpoint?: { kept: Outcome | null; keep(outcome: Outcome): void };
}

