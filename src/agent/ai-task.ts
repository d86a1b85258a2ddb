// motebit_task in AI mode: the bounded loop picks and chains tools, and the outcome is signed exactly like a
// direct-mode task. Status: "denied" iff at least one call was refused and no tool ran; "failed" on a provider
// error, abort, timeout, or the step limit without text; else "completed".
import type { LlmProvider } from "../ports.js";
import type { ExecutionReceipt } from "../protocol/index.js";
import { newMeter, runAiLoop, STEP_LIMIT_ERROR, type AiLoopInput, type LoopMeter } from "./ai-loop.js";
import { failed, signTaskReceipt, type Outcome, type RunTaskInput } from "./task-runner.js";
import { startBudget } from "./turn-budget.js";

export interface RunAiTaskInput extends Omit<RunTaskInput, "requiredCapabilities"> {
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
}

export async function runAiTask(i: RunAiTaskInput): Promise<ExecutionReceipt> {
  const submittedAt = i.clock.now();
  const meter = newMeter();
  const budget = startBudget(i.timeoutMs, i.signal);
  let outcome: Outcome;
  try {
    const r = await runAiLoop({
      llm: i.llm,
      system: i.system,
      prompt: i.prompt,
      tools: i.tools,
      offered: i.offered,
      gate: i.gate,
      signal: budget.signal,
      onToolCall: i.onToolCall,
      log: i.log,
      stream: i.stream,
      meter,
    });
    if (r.status === "step_limit") outcome = failed(STEP_LIMIT_ERROR, r.toolsUsed);
    else if (meter.denials > 0 && r.toolsUsed.length === 0) outcome = { status: "denied", result: r.text, toolsUsed: [] };
    else outcome = { status: "completed", result: r.text, toolsUsed: r.toolsUsed };
  } catch (e) {
    outcome = failed(budget.errorText(e), meter.started);
  } finally {
    budget.end();
  }
  i.onTurn(meter, outcome.status !== "failed");
  return signTaskReceipt(i, outcome, submittedAt);
}
