// The words admission refuses with. Clients, receipts and tests read them: change none of them lightly.

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

export function policyDenied(reason: string): string {
  return `Policy denied: ${reason}`;
}

export function outsideScopeMessage(toolName: string, scope: string): string {
  return policyDenied(`tool "${toolName}" is outside the delegated scope "${scope}"`);
}

/** A call the caller's OAuth grant does not reach: it may come back through consent for `needed` (step-up). */
export function outsideGrantMessage(what: string, needed: string): string {
  return `${what} needs the OAuth scope ${needed}, which this access token was not granted; re-authorize with it (the owner approves again)`;
}

/** Work that may not run now (run-now.ts says why). */
export function stoppedMessage(stop: string): string {
  return `Denied: ${stop}`;
}

/** A tool this caller's audience leaves out: it does not exist for it. */
export function unknownToolMessage(toolName: string): string {
  return `Unknown tool: ${toolName}`;
}
