// The one policy gate every served-tool call and every task passes through. Fails closed.

import type { Principal } from "../principal.js";
import type { Governance } from "./governance.js";
import type { RiskLevel } from "./risk.js";

export type GateDecision =
  | { outcome: "allow" }
  | { outcome: "deny"; message: string }
  | { outcome: "approval"; message: string };

export const DEFAULT_DENY_REASON = "tool not allowed by governance policy";

export function approvalMessage(toolName: string): string {
  return `Governance: tool "${toolName}" requires approval from the motebit owner. This tool is in the approval band of the governance policy.`;
}

/**
 * The refusal of a tool above R0 to a first_contact caller. Not the approval-band text: the tool need not be in that
 * band (motebit_task is R3, which a service motebit runs for verified callers), and no approval can be asked for
 * over MCP, so what would change the answer is the caller's trust.
 */
export function firstContactMessage(toolName: string): string {
  return `Governance: tool "${toolName}" is refused to a first_contact caller, which may run risk-free (R0) tools only; no approval can be asked for over MCP. The motebit owner can give this caller more trust.`;
}

const ALLOW: GateDecision = Object.freeze({ outcome: "allow" });

function deny(reason: string): GateDecision {
  return { outcome: "deny", message: `Policy denied: ${reason}` };
}

/**
 * Order matters: refusals that hold for everyone come first, then caller trust, then the bands.
 * There is no approval queue over MCP, so the approval band runs only for the owner (the approver)
 * and for peers the owner pinned as "trusted"; every other caller gets the approval refusal.
 */
export function decide(i: {
  toolName: string;
  risk: RiskLevel | null;
  principal: Principal;
  governance: Governance;
  reason?: string;
}): GateDecision {
  const { risk, principal, governance } = i;
  // An undeclared risk is never guessed from the name or description.
  if (risk === null) return deny("tool has no declared risk level");
  if (principal.kind === "peer" && principal.trust === "blocked") return deny("caller is blocked");
  if (risk > governance.denyAbove) return deny(i.reason ?? DEFAULT_DENY_REASON);
  if (principal.kind === "peer" && principal.trust === "first_contact") {
    return risk === 0 ? ALLOW : { outcome: "approval", message: firstContactMessage(i.toolName) };
  }
  if (!inApprovalBand(risk, governance)) return ALLOW;
  if (principal.kind === "owner" || principal.trust === "trusted") return ALLOW;
  return { outcome: "approval", message: approvalMessage(i.toolName) };
}

/** Whether a call at `risk` (not above the deny band) needs approval: both thresholds must agree before one skips it, so a misordered policy errs strict. */
export function inApprovalBand(risk: RiskLevel, governance: Governance): boolean {
  return !(risk <= governance.maxRiskAuto && risk <= governance.requireApprovalAbove);
}
