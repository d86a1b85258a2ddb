// Shared setup for AI-mode tests: a real motebit (SQLite, signer, example tools) driven by a scripted model.
import { makeMotebit, type Harness } from "../helpers/motebit.js";
import { ScriptedLlm, type ScriptTurn } from "../helpers/scripted-llm.js";
import type { Principal } from "../../../src/principal.js";
import { stripIdentityTag, type ExecutionReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";

export async function aiMotebit(script: ScriptTurn[], o: { taskTimeoutMs?: number; tools?: ServedTool[] } = {}): Promise<{ h: Harness; llm: ScriptedLlm }> {
  const llm = new ScriptedLlm(...script);
  const h = await makeMotebit({ llm, taskTimeoutMs: o.taskTimeoutMs, tools: o.tools });
  return { h, llm };
}

export async function aiTask(h: Harness, p: Principal, args: Record<string, unknown>): Promise<ExecutionReceipt> {
  const r = await h.call(p, "motebit_task", args);
  return JSON.parse(stripIdentityTag(r.content[0].text)) as ExecutionReceipt;
}

/** The tool results the model was shown in its n-th call (0-based), as {toolName, output} pairs. */
export function toolResultsSeen(llm: ScriptedLlm, call: number): { toolName: string; output: { type: string; value: unknown } }[] {
  return llm.seen[call].prompt
    .filter((m) => m.role === "tool")
    .flatMap((m) => m.content as { type: string; toolName: string; output: { type: string; value: unknown } }[])
    .filter((c) => c.type === "tool-result");
}
