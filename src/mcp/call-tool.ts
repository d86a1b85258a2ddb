import type { CallContext, MotebitContext } from "./context.js";
import type { ToolView } from "./call-view.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import type { CallToolResult, ToolOutcome } from "./tool-outcome.js";
import { ok, okRich, refused, toCallToolResult, toolError } from "./tool-outcome.js";
import { toolContextFor } from "./tool-context.js";
import { InputRound, inputRequiredResult, openRound, type Retry } from "./stateless/input-required.js";
import { HEADER_MISMATCH, MISSING_CLIENT_CAPABILITY } from "./stateless/revision.js";
import { paramHeaderMismatch } from "./stateless/param-headers.js";
import { TASKS_EXTENSION } from "./stateless/tasks-extension.js";
import { refusalOf } from "../policy/admission/admit.js";
import { approvalMessage } from "../policy/admission/refusals.js";
import { formatToolData, invokeTool } from "../tools/invoke.js";
import { validateArgs } from "../tools/validate-args.js";
import { schemaProblem } from "../tools/json-schema.js";
import type { AuditOutcome } from "../stores/audit-log.js";
import { principalLabel } from "../principal.js";
import type { ToolDefinition, ToolResult } from "../tools/types.js";
import { echo } from "../bounded/echo.js";

/**
 * One tools/call: find, refuse, validate, run, tag, audit. Finding and refusing read the call's view, as tools/list
 * does, so a tool is called exactly as it is listed; refusing first means a refused caller learns nothing of the
 * schema. Every path lands in the audit log.
 */
export async function callTool(
  m: MotebitContext,
  stored: CallContext,
  view: ToolView,
  name: unknown,
  rawArgs: unknown,
  /** A 2026-07-28 call: the answers and signed state of an input-required retry (both absent on the first round). */
  retry?: Retry,
): Promise<CallToolResult | Record<string, unknown>> {
  const args = rawArgs === undefined ? {} : rawArgs;
  // The caller as it stands now: a stored call (a resumed task) may carry trust that has changed since.
  const c: CallContext = { ...stored, principal: view.principal };
  const record = (outcome: AuditOutcome) =>
    m.audit.record({ tool: String(name).slice(0, 200), caller: principalLabel(c.principal), args, outcome, at: m.clock.now() });

  if (typeof name !== "string") {
    record("invalid");
    throw new RpcError(INVALID_PARAMS, "tools/call needs a string 'name'");
  }
  const entry = view.find(name);
  if (!entry) {
    // Unknown here includes a tool whose audience leaves this caller out (localOnly, owner-only over HTTP): audited like any other refusal.
    record("invalid");
    throw new RpcError(INVALID_PARAMS, `Unknown tool: ${echo(name)}`);
  }
  // 2026-07-28 over HTTP: the arguments the tool mirrors in Mcp-Param-* headers must agree with them.
  const headerMismatch = c.call.paramHeaders === undefined ? null : paramHeaderMismatch(entry.inputSchema, args, c.call.paramHeaders);
  if (headerMismatch !== null) {
    record("invalid");
    throw new RpcError(HEADER_MISMATCH, `Header mismatch: ${headerMismatch}`);
  }

  // A tool that signs every outcome (motebit_task) answers a lost standing itself, with a signed receipt saying why.
  const admission = view.admission(entry);
  const refusal = refusalOf(admission);
  if (refusal !== null) {
    record(refusal.outcome === "deny" ? "denied" : "approval_required");
    return toCallToolResult(refused(refusal.message), m.motebitId, m.publicKeyHex);
  }
  const invalid = validateArgs(entry.inputSchema, args, name);
  if (invalid !== null) {
    record("invalid");
    return toCallToolResult(refused(invalid), m.motebitId, m.publicKeyHex);
  }
  // A 2026-07-28 client that negotiated tasks gets a handle at once; the task runs this same call again, as itself.
  if (entry.taskSupport !== undefined && c.call.statelessVersion !== null && c.call.taskAnswers === undefined) {
    if (c.call.startTask) return c.call.startTask(name, args);
    if (entry.taskSupport === "required") {
      record("invalid");
      throw new RpcError(MISSING_CLIENT_CAPABILITY, `Missing required client capability: tool "${name}" runs only as a task (${TASKS_EXTENSION})`, {
        requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
      });
    }
  }
  // The owner is the approver: in the approval band, a client that can ask its user does so before the call runs.
  // 2026-07-28: the client's answers (approval included) come back as a retry with signed state, not as replies.
  const round =
    c.call.taskAnswers !== undefined ? new InputRound(c, c.call.taskAnswers) : retry === undefined ? undefined : await openRound(m, c, name, args, retry);
  if (admission.outcome === "ask_owner") {
    const ask = round
      ? (params: Record<string, unknown>) => round.ask("elicitation/create", params, APPROVAL_KEY)
      : (params: Record<string, unknown>) => c.channel.request("elicitation/create", params, c.signal);
    const refusal = await askOwner(ask, name);
    if (round?.needsInput) {
      record("input_required");
      return inputRequiredResult(m, c, name, args, round);
    }
    if (refusal !== null) {
      record("approval_required");
      return toCallToolResult(refused(refusal), m.motebitId, m.publicKeyHex);
    }
  }

  let outcome: ToolOutcome;
  if (entry.tool.kind === "synthetic") {
    outcome = await entry.tool.impl.run(args as Record<string, unknown>, m, c);
  } else {
    const r = await invokeTool(entry.tool.impl, args as Record<string, unknown>, c.signal, toolContextFor(c, name, round));
    if (round?.needsInput) {
      record("input_required");
      return inputRequiredResult(m, c, name, args, round);
    }
    if (round?.missingCapability && !r.ok) {
      record("invalid");
      throw round.missingCapabilityError();
    }
    outcome = servedOutcome(entry.tool.impl.definition, r);
  }
  record(outcome.kind === "ok" || outcome.kind === "ok_rich" ? "allowed" : outcome.kind === "refused" ? "denied" : "error");
  return toCallToolResult(outcome, m.motebitId, m.publicKeyHex);
}

/** A served tool's result as an outcome: plain data stays one text block; content and structuredContent go out as given, checked against outputSchema. */
function servedOutcome(def: ToolDefinition, r: ToolResult): ToolOutcome {
  if (!r.ok) return toolError(r.error, r.content);
  if (r.content === undefined && r.structuredContent === undefined) {
    return def.outputSchema === undefined ? ok(formatToolData(r.data)) : toolError(`tool "${def.name}" has an outputSchema but returned no structuredContent`);
  }
  if (def.outputSchema !== undefined) {
    if (r.structuredContent === undefined) return toolError(`tool "${def.name}" has an outputSchema but returned no structuredContent`);
    const problem = schemaProblem(def.outputSchema, r.structuredContent);
    if (problem !== null) return toolError(`tool "${def.name}" returned structuredContent that does not fit its outputSchema: ${problem}`);
  }
  // MCP: a tool returning structuredContent should also return it as text, for clients that read only content.
  const content = r.content ?? [{ type: "text" as const, text: JSON.stringify(r.structuredContent) }];
  return okRich(content, r.structuredContent);
}

/** The input request key of the owner's approval in a 2026-07-28 input-required result. */
const APPROVAL_KEY = "motebit_approval";

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
