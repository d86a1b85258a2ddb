// What an AI turn (motebit_query, motebit_task in AI mode) gets from the MCP layer: the context any caller may
// see, the served tools this principal can see with the call-time gate over them, and the audit hooks.
import type { MotebitContext } from "../context.js";
import type { CallContext } from "../context.js";
import type { Principal } from "../../principal.js";
import { isOwner, principalLabel } from "../../principal.js";
import { decide, type GateDecision } from "../../policy/gate.js";
import { scopeAllows } from "../../protocol/index.js";
import type { ServedTool } from "../../tools/types.js";
import type { AuditOutcome, AuditSink } from "../../agent/audit-log.js";
import type { LoopMeter } from "../../agent/ai-loop.js";
import type { MemoryFormation } from "../../agent/memory-formation.js";
import { memoryScopeOf, peerSourceOf } from "../memory-scope.js";

/** What any caller's turn may see: identity, persona, the tools it may use, the model. Never owner-private context. */
export function publicContext(m: MotebitContext, p: Principal): string {
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
export function turnMemories(m: MotebitContext, p: Principal): MemoryFormation {
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
  /** Governance and caller trust, then the delegation scope when there is one. */
  gate: (toolName: string) => GateDecision;
  onToolCall: (e: { tool: string; args: unknown; outcome: AuditOutcome }) => void;
  /** One audit row per turn: tool "model:<id>", with token usage and denials. */
  recordTurn: (meter: LoopMeter, ok: boolean) => void;
  /** The host's log, where a failed model call is reported. */
  log: (line: string) => void;
}

/** `audit` is where the turn's rows go: the log itself, or a task's batch written with its receipt. */
export function aiTurnTools(m: MotebitContext, c: CallContext, delegatedScope?: string, audit: AuditSink = m.audit): AiTurnTools {
  const caller = principalLabel(c.principal);
  const owner = isOwner(c.principal);
  const tools = m.registry.list({ overHttp: !owner });
  const gate = (toolName: string): GateDecision => {
    if (delegatedScope !== undefined && !scopeAllows(delegatedScope, toolName)) {
      return { outcome: "deny", message: `Policy denied: tool "${toolName}" is outside the delegated scope "${delegatedScope}"` };
    }
    return decide({ toolName, risk: m.registry.riskOf(toolName), principal: c.principal, governance: m.governance });
  };
  const g = m.governance;
  const autoBand = (name: string) => {
    const risk = m.registry.riskOf(name);
    return risk !== null && risk <= g.maxRiskAuto && risk <= g.requireApprovalAbove;
  };
  return {
    tools,
    offered: tools.map((t) => t.definition.name).filter((n) => gate(n).outcome === "allow" && (owner || autoBand(n))),
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
