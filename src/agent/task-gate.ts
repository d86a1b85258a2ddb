// The one gate a task or an AI turn puts in front of every tool: the delegation scope first (a delegation scopes the
// work itself), then governance and caller trust (policy/gate.ts). Direct and AI mode, motebit_task and
// motebit_query all build it here.
import type { Principal } from "../principal.js";
import { decide, inApprovalBand, type GateDecision } from "../policy/gate.js";
import type { Governance } from "../policy/governance.js";
import { scopeAllows } from "../protocol/index.js";
import type { ToolRegistry } from "../tools/registry.js";

export interface GatedMotebit {
  readonly registry: Pick<ToolRegistry, "riskOf">;
  readonly governance: Governance;
}

export type ToolGate = (toolName: string) => GateDecision;

export function taskGate(m: GatedMotebit, principal: Principal, delegatedScope?: string): ToolGate {
  return (toolName) => {
    if (delegatedScope !== undefined && !scopeAllows(delegatedScope, toolName)) {
      return { outcome: "deny", message: `Policy denied: tool "${toolName}" is outside the delegated scope "${delegatedScope}"` };
    }
    return decide({ toolName, risk: m.registry.riskOf(toolName), principal, governance: m.governance });
  };
}

/**
 * What a model may be offered: tools the gate allows now, and for a peer never one in the approval band (even a
 * trusted peer's: there is no approver to ask mid-turn).
 */
export function offerable(m: GatedMotebit, principal: Principal, gate: ToolGate, toolName: string): boolean {
  if (gate(toolName).outcome !== "allow") return false;
  if (principal.kind === "owner") return true;
  const risk = m.registry.riskOf(toolName);
  return risk !== null && !inApprovalBand(risk, m.governance);
}
