// The owner is the approver: an approval-band call admission marks ask_owner is put to the owner before it runs,
// by elicitation in a session, or, in 2026-07-28, as an input request whose answer comes back as a retry with
// signed state (the round), and in an MCP task's run through the answers its client gave.
import type { CallContext } from "../call-context.js";
import type { InputRound } from "../stateless/input-required.js";
import { approvalMessage } from "../../policy/admission/refusals.js";

/** The input request key of the owner's approval in a 2026-07-28 input-required result. */
const APPROVAL_KEY = "motebit_approval";

export type OwnerAnswer = { kind: "accepted" } | { kind: "input_required" } | { kind: "refused"; message: string };

export async function askOwnerFirst(c: CallContext, name: string, round: InputRound | undefined): Promise<OwnerAnswer> {
  const ask = round
    ? (params: Record<string, unknown>) => round.ask("elicitation/create", params, APPROVAL_KEY)
    : (params: Record<string, unknown>) => c.channel.request("elicitation/create", params, c.signal);
  const refusal = await askOwner(ask, name);
  if (round?.needsInput) return { kind: "input_required" };
  return refusal === null ? { kind: "accepted" } : { kind: "refused", message: refusal };
}

/** Asks the owner through elicitation; null when they accept, else the governance text to refuse with. */
async function askOwner(ask: (params: Record<string, unknown>) => Promise<unknown>, name: string): Promise<string | null> {
  const refusal = approvalMessage(name);
  try {
    const answer = (await ask({
      message: `${refusal} Run "${name}" now?`,
      requestedSchema: { type: "object", properties: {} },
    })) as { action?: unknown };
    return answer?.action === "accept" ? null : refusal;
  } catch (e) {
    return `${refusal} (the approval request failed: ${(e as Error).message})`;
  }
}
