import type { MotebitContext } from "./motebit-context.js";
import type { CallContext } from "./call-context.js";
import type { CallerViewWithCatalog } from "./caller-view.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import type { CallToolResult, ToolOutcome } from "./tool-outcome.js";
import { refused, toCallToolResult } from "./tool-outcome.js";
import { InputRound, inputRequiredResult, openRound, type Retry } from "./stateless/input-required.js";
import { paramHeaderError } from "./call/param-headers-check.js";
import { mcpTaskStart } from "./call/mcp-task-start.js";
import { askOwnerFirst } from "./call/owner-approval.js";
import { runServed } from "./call/served-run.js";
import { refusalOf } from "../policy/admission/admit.js";
import { validateArgs } from "../tools/validate-args.js";
import type { AuditOutcome } from "../policy/audit-log.js";
import { principalLabel } from "../principal.js";
import { echo } from "../bounded/echo.js";
import { withTrace } from "./call-context.js";
import { admissionTraced } from "../telemetry/admission-span.js";
import { toolTraced } from "../telemetry/tool-span.js";

/**
 * One tools/call: find, admit, validate, run, tag, audit; each mode's part (Mcp-Param-* headers, an MCP task's
 * start, the owner's approval, input rounds) is in src/mcp/call/. Finding and admitting read the call's view, as
 * tools/list does, so a tool is called exactly as it is listed; refusing first means a refused caller learns
 * nothing of the schema. Every path lands in the audit log.
 */
export async function callTool(
  m: MotebitContext,
  stored: CallContext,
  view: CallerViewWithCatalog,
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
  const answer = (outcome: ToolOutcome) => toCallToolResult(outcome, m.motebitId, m.publicKeyHex);

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
  const headerError = paramHeaderError(c, entry, args);
  if (headerError !== null) {
    record("invalid");
    throw headerError;
  }
  // A tool that signs every outcome (motebit_task) answers a lost standing itself, with a signed receipt saying why.
  const admission = admissionTraced(c.trace, name, () => view.admission(entry));
  const refusal = refusalOf(admission);
  if (refusal !== null) {
    record(refusal.outcome === "deny" ? "denied" : "approval_required");
    return answer(refused(refusal.message));
  }
  const invalid = validateArgs(entry.inputSchema, args, name);
  if (invalid !== null) {
    record("invalid");
    return answer(refused(invalid));
  }
  const task = mcpTaskStart(c, entry, name, args);
  if (task !== null) {
    if ("started" in task) return task.started;
    record("invalid");
    throw task.error;
  }
  // 2026-07-28: the client's answers (approval included) come back as a retry with signed state, not as replies.
  const round =
    c.call.taskAnswers !== undefined ? new InputRound(c, c.call.taskAnswers) : retry === undefined ? undefined : await openRound(m, c, name, args, retry);
  if (admission.outcome === "ask_owner") {
    const owner = await askOwnerFirst(c, name, round);
    if (owner.kind === "input_required") {
      record("input_required");
      return inputRequiredResult(m, c, name, args, round!);
    }
    if (owner.kind === "refused") {
      record("approval_required");
      return answer(refused(owner.message));
    }
  }

  let outcome: ToolOutcome;
  const tool = entry.tool;
  if (tool.kind === "synthetic") {
    outcome = await toolTraced(c.trace, name, args, (t) => tool.impl.run(args as Record<string, unknown>, m, withTrace(c, t)), failedOutcome);
  } else {
    const ran = await toolTraced(c.trace, name, args, (t) => runServed(tool.impl, args as Record<string, unknown>, withTrace(c, t), name, round), (r) => r.kind === "outcome" && failedOutcome(r.outcome));
    if (ran.kind === "input_required") {
      record("input_required");
      return inputRequiredResult(m, c, name, args, round!);
    }
    if (ran.kind === "missing_capability") {
      record("invalid");
      throw ran.error;
    }
    outcome = ran.outcome;
  }
  record(outcome.kind === "ok" || outcome.kind === "ok_rich" ? "allowed" : outcome.kind === "refused" ? "denied" : "error");
  return answer(outcome);
}

/** A tool error or refusal: isError on the wire, tool_error on the span. */
const failedOutcome = (o: ToolOutcome) => o.kind === "tool_error" || o.kind === "refused";
