// motebit_task in direct mode: pick a tool, pass the gate, run it under a deadline, and sign what happened.
// Every path ends in a signed receipt — refusals and failures included (docs/protocol.md §4).
// AI mode (a model choosing and chaining tools) is ai-task.ts; both sign through task-receipt.ts.

import type { ExecutionReceipt } from "../protocol/index.js";
import { mapPromptToArgs, selectDirectTool } from "../tools/direct-mode.js";
import { clientWithTrace, invokeTool, resultText } from "../tools/invoke.js";
import { toolTraced } from "../telemetry/tool-span.js";
import type { TraceScope } from "../telemetry/trace-scope.js";
import type { ServedTool } from "../tools/types.js";
import type { TaskInput } from "./task-input.js";
import { validateArgs } from "../tools/validate-args.js";
import { failed, signTaskReceipt, type Outcome } from "./task-receipt.js";
import { startBudget } from "./turn-budget.js";

export interface RunTaskInput extends TaskInput {
  /** What the submitter asked for: the tool is chosen among those that declare one of these. */
  requiredCapabilities?: string[];
}

export async function runTask(i: RunTaskInput): Promise<ExecutionReceipt> {
  if (!(Number.isFinite(i.timeoutMs) && i.timeoutMs > 0)) throw new RangeError(`timeoutMs must be a positive number, got ${i.timeoutMs}`);
  const submittedAt = i.clock.now();
  let outcome: Outcome;
  if (i.checkpoint?.kept) outcome = i.checkpoint.kept;
  else {
    try {
      outcome = await execute(i);
    } catch (err) {
      // Anything unexpected still yields a signed failure, never an unreceipted task.
      outcome = failed(`Error: ${err instanceof Error ? err.message : String(err)}`);
    }
    // Kept before the (async) signing: a host killed while it signs resumes with this outcome, not a second run.
    i.checkpoint?.keep(outcome);
  }
  return signTaskReceipt(i, outcome, submittedAt);
}

async function execute(i: RunTaskInput): Promise<Outcome> {
  const selected = selectDirectTool(i.tools, i.requiredCapabilities);
  if ("error" in selected) return failed(`Error: ${selected.error}`);
  const { tool } = selected;
  const mapped = mapPromptToArgs(tool, i.prompt);
  if ("error" in mapped) return failed(`Error: ${mapped.error}`);
  const name = tool.definition.name;
  // The gate comes before argument checks, so a refused tool reveals nothing about its schema.
  const lost = i.standing?.() ?? null;
  if (lost !== null) return failed(`Error: not run: ${lost}`);
  const decision = i.gate(name);
  if (decision.outcome !== "allow") return { status: "denied", result: decision.message, toolsUsed: [] };
  const invalid = validateArgs(tool.definition.inputSchema, mapped.args, name);
  if (invalid !== null) return failed(`Error: ${invalid}`);
  return toolTraced(i.trace, name, mapped.args, (t) => runWithDeadline(tool, mapped.args, i.timeoutMs, i.signal, t), (o) => o.status !== "completed");
}

async function runWithDeadline(tool: ServedTool, args: Record<string, unknown>, timeoutMs: number, cancel: AbortSignal | undefined, trace: TraceScope | undefined): Promise<Outcome> {
  const used = [tool.definition.name];
  // The same budget as an AI turn: one timer and the caller's cancellation, and the receipt's words for either.
  const budget = startBudget(timeoutMs, cancel);
  try {
    // invokeTool stops waiting the moment the budget aborts, even if the handler ignores it.
    const r = await invokeTool(tool, args, budget.signal, clientWithTrace(trace));
    if (r.ok) return { status: "completed", result: resultText(r), toolsUsed: used };
    return failed(budget.errorText(r.error), used);
  } finally {
    budget.end();
  }
}
