// motebit_task in direct mode: pick a tool, pass the gate, run it under a deadline, and sign what happened.
// Every path ends in a signed receipt — refusals and failures included (docs/protocol.md §4).
// AI mode (a model choosing and chaining tools) is ai-task.ts; it signs through signTaskReceipt below.

import type { Clock } from "../ports.js";
import type { GateDecision } from "../policy/gate.js";
import { sha256Hex, signReceipt, type ExecutionReceipt, type Signer, type UnsignedReceipt } from "../protocol/index.js";
import { mapPromptToArgs, selectDirectTool } from "../tools/direct-mode.js";
import { invokeTool, resultText } from "../tools/invoke.js";
import type { ServedTool } from "../tools/types.js";
import { validateArgs } from "../tools/validate-args.js";
import { startBudget } from "./turn-budget.js";

export type InvocationOrigin = NonNullable<ExecutionReceipt["invocation_origin"]>;

export interface RunTaskInput {
  prompt: string;
  requiredCapabilities?: string[];
  /** The tools this caller may be served (already filtered for its transport). */
  tools: ServedTool[];
  /** The policy gate, bound to the caller and governance. */
  gate: (toolName: string) => GateDecision;
  signer: Signer;
  motebitId: string;
  deviceId: string;
  relayTaskId?: string;
  delegatedScope?: string;
  /** The tool is aborted and the receipt says "timed out" after this many ms. */
  timeoutMs: number;
  /** Receipt timestamps only; the deadline uses a real timer. */
  clock: Clock;
  /** Default "agent-to-agent". */
  invocationOrigin?: InvocationOrigin;
  /** Default 0 (peers never form owner memories). */
  memoriesFormed?: number;
  /** Cancels the task (client cancelled, session closed); the receipt says "Error: task cancelled". */
  signal?: AbortSignal;
  /** A line the receipt's result starts with (e.g. why the relay's task record could not be read). */
  note?: string;
  /** Re-checked before each tool step: why the caller may no longer have work run (its standing is gone), or null. */
  standing?: () => string | null;
}

export interface Outcome {
  status: ExecutionReceipt["status"];
  result: string;
  toolsUsed: string[];
}

export const failed = (result: string, toolsUsed: string[] = []): Outcome => ({ status: "failed", result, toolsUsed });

export async function runTask(i: RunTaskInput): Promise<ExecutionReceipt> {
  if (!(Number.isFinite(i.timeoutMs) && i.timeoutMs > 0)) throw new RangeError(`timeoutMs must be a positive number, got ${i.timeoutMs}`);
  const submittedAt = i.clock.now();
  let outcome: Outcome;
  try {
    outcome = await execute(i);
  } catch (err) {
    // Anything unexpected still yields a signed failure, never an unreceipted task.
    outcome = failed(`Error: ${err instanceof Error ? err.message : String(err)}`);
  }
  return signTaskReceipt(i, outcome, submittedAt);
}

/** The one place a task's receipt is built and signed: relay_task_id and delegated_scope inside the signature. */
export async function signTaskReceipt(
  i: Pick<RunTaskInput, "prompt" | "signer" | "motebitId" | "deviceId" | "relayTaskId" | "delegatedScope" | "clock" | "invocationOrigin" | "memoriesFormed" | "note">,
  outcome: Outcome,
  submittedAt: number,
): Promise<ExecutionReceipt> {
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
  return runWithDeadline(tool, mapped.args, i.timeoutMs, i.signal);
}

async function runWithDeadline(tool: ServedTool, args: Record<string, unknown>, timeoutMs: number, cancel?: AbortSignal): Promise<Outcome> {
  const used = [tool.definition.name];
  // The same budget as an AI turn: one timer and the caller's cancellation, and the receipt's words for either.
  const budget = startBudget(timeoutMs, cancel);
  try {
    // invokeTool stops waiting the moment the budget aborts, even if the handler ignores it.
    const r = await invokeTool(tool, args, budget.signal);
    if (r.ok) return { status: "completed", result: resultText(r), toolsUsed: used };
    return failed(budget.errorText(r.error), used);
  } finally {
    budget.end();
  }
}
