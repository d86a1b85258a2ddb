// What an AI turn (motebit_query, motebit_task in AI mode) runs with: the context any caller may see, the served
// tools this principal can see with the gate over them (task-gate.ts), and the audit hooks.
import type { Clock, LlmProvider } from "../ports.js";
import type { Principal } from "../principal.js";
import { isOwner, principalLabel } from "../principal.js";
import type { RiskLevel } from "../policy/risk.js";
import type { IdentityDoc } from "../protocol/index.js";
import type { MemoryStore } from "../memory/store.js";
import { memoryScopeOf, peerSourceOf } from "../memory/scope.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { ServedTool } from "../tools/types.js";
import type { AuditLog, AuditOutcome, AuditSink } from "../policy/audit-log.js";
import type { LoopMeter } from "./ai-loop.js";
import type { MemoryFormation } from "./memory-formation.js";
import { offerable, taskGate, type GatedMotebit, type ToolGate } from "./task-gate.js";

/** One motebit_tools row. `risk` is the integer level (docs/protocol.md §7, as the reference answers), its name beside it. */
export interface CallableTool {
  name: string;
  description: string;
  risk: RiskLevel;
  risk_name: string;
}

/** What an AI turn needs from the motebit (the MCP layer's MotebitContext is one). */
export interface TurnMotebit extends GatedMotebit {
  readonly motebitId: string;
  readonly did: string;
  readonly type: string;
  readonly identityDoc: IdentityDoc | null;
  readonly llm: LlmProvider | null;
  readonly registry: ToolRegistry;
  readonly memory: MemoryStore;
  readonly clock: Clock;
  readonly audit: AuditLog;
  /** What this principal may call, with risk names. */
  callableTools(principal: Principal): CallableTool[];
  log(line: string): void;
}

/** What any caller's turn may see: identity, persona, the tools it may use, the model. Never owner-private context. */
export function publicContext(m: TurnMotebit, p: Principal): string {
  const doc = m.identityDoc;
  const name = doc?.service_name ?? "a motebit";
  const tools = m.callableTools(p).map((t) => `${t.name} (${t.risk_name})`).join(", ");
  return [
    `You are ${name}, motebit ${m.motebitId} (${m.type}), key ${m.did}.`,
    doc?.service_description ? `About you: ${doc.service_description}` : "",
    `Tools this caller may use: ${tools || "none"}.`,
    `You run on model ${m.llm?.id ?? "none"}.`,
    isOwner(p) ? "You are talking with your owner." : "You are talking with another agent, not your owner.",
  ]
    .filter(Boolean)
    .join("\n");
}

/** The identity file's memory governance when it has none (the protocol's defaults). */
const DEFAULT_PER_TURN_LIMIT = 5;
const DEFAULT_CONFIDENCE_THRESHOLD = 0.3;

/** Where a turn's memories go and under which governance: the principal's own scope, marked with whose turn it was. */
export function turnMemories(m: TurnMotebit, p: Principal): MemoryFormation {
  return {
    memory: m.memory,
    scope: memoryScopeOf(p),
    provenance: isOwner(p) ? "owner" : "peer_agent",
    sourceId: peerSourceOf(p),
    perTurnLimit: m.identityDoc?.memory.per_turn_limit ?? DEFAULT_PER_TURN_LIMIT,
    confidenceThreshold: m.identityDoc?.memory.confidence_threshold ?? DEFAULT_CONFIDENCE_THRESHOLD,
  };
}

export interface AiTurnTools {
  /** Served tools this principal can see (never localOnly over HTTP, never motebit_*). */
  tools: ServedTool[];
  /** What the model is offered: tools the gate allows now; for a peer, never the approval band (even when trusted). */
  offered: string[];
  /** The delegation scope when there is one, then governance and caller trust. */
  gate: ToolGate;
  onToolCall: (e: { tool: string; args: unknown; outcome: AuditOutcome }) => void;
  /** One audit row per turn: tool "model:<id>", with token usage and denials. */
  recordTurn: (meter: LoopMeter, ok: boolean) => void;
  /** The host's log, where a failed model call is reported. */
  log: (line: string) => void;
}

/** `audit` is where the turn's rows go: the log itself, or a task's batch written with its receipt. */
export function aiTurnTools(m: TurnMotebit, principal: Principal, delegatedScope?: string, audit: AuditSink = m.audit): AiTurnTools {
  const caller = principalLabel(principal);
  const tools = m.registry.list(principal.kind);
  const gate = taskGate(m, principal, delegatedScope);
  return {
    tools,
    offered: tools.map((t) => t.definition.name).filter((n) => offerable(m, principal, delegatedScope, n)),
    gate,
    onToolCall: (e) => audit.record({ ...e, caller, at: m.clock.now() }),
    log: (line) => m.log(line),
    recordTurn: (meter, ok) =>
      audit.record({
        tool: `model:${m.llm?.id ?? "none"}`,
        caller,
        args: { tools_started: meter.started },
        outcome: ok ? "allowed" : "error",
        at: m.clock.now(),
        turn: { inputTokens: meter.inputTokens, outputTokens: meter.outputTokens, denials: meter.denials },
      }),
  };
}
