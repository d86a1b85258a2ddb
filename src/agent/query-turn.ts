// motebit_query's turn: pack what this principal may see, run the shared bounded loop, keep the facts the model
// marked. Owner turns recall the owner's memories (never medical, financial or secret); a peer's turn recalls only
// its own scope and the caller decides what it reports. Memory formation follows the identity file's governance:
// at most perTurnLimit facts, none below the confidence threshold, none that looks like a credential.
import type { LlmProvider } from "../ports.js";
import type { MemoryStore } from "../memory/store.js";
import type { Sensitivity } from "../memory/sensitivity.js";
import { formMemories, memoryInstruction } from "./memory-formation.js";
import type { Admission } from "../policy/admission/admit.js";
import type { ServedTool } from "../tools/types.js";
import { runAiLoop, STEP_LIMIT_ERROR, type AiLoopInput, type LoopMeter } from "./ai-loop.js";
import { asExternalData } from "./external-data.js";
import { recallTraced } from "../telemetry/memory-span.js";
import { tracedGate } from "../telemetry/admission-span.js";
import type { TraceScope } from "../telemetry/trace-scope.js";

export interface QueryTurnInput {
  message: string;
  llm: LlmProvider;
  memory: MemoryStore;
  /** Persona and public identity: who the motebit is, which tools the caller may use, which model runs. */
  publicContext: string;
  /** Memory scopes this turn may read and writes to (its first entry). Empty for none. */
  scopes: string[];
  excludeSensitivities: Sensitivity[];
  provenance: "owner" | "peer_agent";
  sourceId?: string;
  perTurnLimit: number;
  /** Facts the model rates below this are not kept. */
  confidenceThreshold: number;
  /** Served tools this principal can see, and the call-time gate over them. */
  tools: ServedTool[];
  offered: string[];
  gate: (toolName: string) => Admission;
  onToolCall: AiLoopInput["onToolCall"];
  log: AiLoopInput["log"];
  meter: LoopMeter;
  /** The turn's budget and cancellation. */
  signal: AbortSignal;
  /** The call's span, when telemetry is on: the recall, model calls and tool runs hang under it. */
  trace?: TraceScope;
}

export interface QueryTurnResult {
  response: string;
  /** How many memories the turn stored (the caller decides what to report). */
  stored: number;
}

export async function runQueryTurn(i: QueryTurnInput): Promise<QueryTurnResult> {
  const recalled =
    i.scopes.length === 0
      ? []
      : await recallTraced(i.trace, () => i.memory.recall({ query: i.message, limit: 8, scopes: i.scopes, excludeSensitivities: i.excludeSensitivities }));
  const memoryBlock = recalled.length
    ? "Relevant memories:\n" + asExternalData("memory", recalled.map((h) => `- ${JSON.stringify(h.content)}`).join("\n"))
    : "No memories are available for this turn.";
  const system =
    `${i.publicContext}\n\n${memoryBlock}\n\n` +
    `Answer the message. ${memoryInstruction(i.perTurnLimit)}`;
  const r = await runAiLoop({
    llm: i.llm,
    system,
    prompt: i.message,
    tools: i.tools,
    offered: i.offered,
    gate: tracedGate(i.trace, i.gate),
    signal: i.signal,
    onToolCall: i.onToolCall,
    log: i.log,
    stream: true,
    meter: i.meter,
    trace: i.trace,
  });
  if (r.status === "step_limit") throw new Error(STEP_LIMIT_ERROR.replace(/^Error: /, ""));
  const where =
    i.scopes.length === 0
      ? null
      : { memory: i.memory, scope: i.scopes[0], provenance: i.provenance, sourceId: i.sourceId, perTurnLimit: i.perTurnLimit, confidenceThreshold: i.confidenceThreshold, recalled };
  const formed = await formMemories(r.text, where);
  return { response: formed.answer, stored: formed.stored };
}
