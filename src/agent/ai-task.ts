// motebit_task in AI mode: the bounded loop picks and chains tools, and the outcome is signed exactly like a
// direct-mode task. Status: "denied" iff at least one call was refused and no tool ran; "failed" on a provider
// error, abort, timeout, or the step limit without text; else "completed".
import type { LlmProvider } from "../ports.js";
import type { ExecutionReceipt } from "../protocol/index.js";
import { newMeter, runAiLoop, STEP_LIMIT_ERROR, type AiLoopInput, type LoopMeter } from "./ai-loop.js";
import { failed, signTaskReceipt, type Outcome } from "./task-receipt.js";
import type { TaskInput } from "./task-input.js";
import { startBudget } from "./turn-budget.js";
import { formMemories, memoryInstruction, type MemoryFormation } from "./memory-formation.js";

export interface RunAiTaskInput extends TaskInput {
  llm: LlmProvider;
  /** The turn's context (identity, persona, the tools this caller may use, the model). */
  system: string;
  /** The tools offered to the model (a subset of `tools`, which the loop can still parse and refuse). */
  offered: string[];
  onToolCall: AiLoopInput["onToolCall"];
  log: AiLoopInput["log"];
  /** Once per task, with what the turn used, whether it ended in a receipt of any status. */
  onTurn: (meter: LoopMeter, ok: boolean) => void;
  stream?: boolean;
  /**
   * Memory formation (the turn's facts kept under the identity file's governance), and whether the receipt counts
   * them: only an owner's turn does; a peer's turn may leave peer-marked memories but reports 0.
   */
  memories?: { formation: MemoryFormation; counted: boolean };
}

export async function runAiTask(i: RunAiTaskInput): Promise<ExecutionReceipt> {
  const submittedAt = i.clock.now();
  const kept = i.checkpoint?.kept;
  if (kept) return signTaskReceipt({ ...i, memoriesFormed: kept.memoriesFormed ?? 0 }, kept, submittedAt);
  const meter = newMeter();
  const budget = startBudget(i.timeoutMs, i.signal);
  // Standing is re-read before every tool step; once lost, nothing more runs and the receipt says why.
  let lost: string | null = null;
  const gate: AiLoopInput["gate"] = (name) => {
    lost ??= i.standing?.() ?? null;
    return lost === null ? i.gate(name) : { outcome: "deny", message: `Denied: ${lost}` };
  };
  let outcome: Outcome;
  let memoriesFormed = 0;
  try {
    const r = await runAiLoop({
      llm: i.llm,
      system: i.memories ? `${i.system}\n\n${memoryInstruction(i.memories.formation.perTurnLimit)}` : i.system,
      prompt: i.prompt,
      tools: i.tools,
      offered: i.offered,
      gate,
      signal: budget.signal,
      onToolCall: i.onToolCall,
      log: i.log,
      stream: i.stream,
      meter,
      trace: i.trace,
    });
    if (lost !== null) outcome = failed(`Error: stopped: ${lost}`, r.toolsUsed);
    else if (r.status === "step_limit") outcome = failed(STEP_LIMIT_ERROR, r.toolsUsed);
    else {
      const formed = i.memories ? await formMemories(r.text, i.memories.formation) : { answer: r.text, stored: 0 };
      if (i.memories?.counted) memoriesFormed = formed.stored;
      if (meter.denials > 0 && r.toolsUsed.length === 0) outcome = { status: "denied", result: formed.answer, toolsUsed: [] };
      else outcome = { status: "completed", result: formed.answer, toolsUsed: r.toolsUsed };
    }
  } catch (e) {
    outcome = failed(budget.errorText(e), meter.started);
  } finally {
    budget.end();
  }
  i.onTurn(meter, outcome.status !== "failed");
  // Kept before the (async) signing, as direct mode does: a host killed while it signs resumes with this outcome.
  i.checkpoint?.keep({ ...outcome, memoriesFormed });
  return signTaskReceipt({ ...i, memoriesFormed }, outcome, submittedAt);
}
