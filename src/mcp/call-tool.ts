import type { CallContext, MotebitContext } from "./context.js";
import { findTool } from "./catalog.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import type { CallToolResult, ToolOutcome } from "./tool-outcome.js";
import { ok, refused, toCallToolResult, toolError } from "./tool-outcome.js";
import { decide } from "../policy/gate.js";
import { formatToolData, invokeTool } from "../tools/invoke.js";
import { validateArgs } from "../tools/validate-args.js";
import type { AuditOutcome } from "../agent/audit-log.js";
import { principalLabel } from "../principal.js";
import { echo } from "../protocol/echo.js";

/** One tools/call: find, gate, validate, run, tag, audit. Gating first means a refused caller learns nothing of the schema. Every path lands in the audit log. */
export async function callTool(m: MotebitContext, c: CallContext, name: unknown, rawArgs: unknown): Promise<CallToolResult> {
  const args = rawArgs === undefined ? {} : rawArgs;
  const record = (outcome: AuditOutcome) =>
    m.audit.record({ tool: String(name).slice(0, 200), caller: principalLabel(c.principal), args, outcome, at: m.clock.now() });

  if (typeof name !== "string") {
    record("invalid");
    throw new RpcError(INVALID_PARAMS, "tools/call needs a string 'name'");
  }
  const entry = findTool(m, c.principal, name);
  if (!entry) {
    // Unknown here includes a localOnly or owner-only tool asked for over HTTP: audited like any other refusal.
    record("invalid");
    throw new RpcError(INVALID_PARAMS, `Unknown tool: ${echo(name)}`);
  }

  const decision = decide({ toolName: name, risk: entry.risk, principal: c.principal, governance: m.governance });
  if (decision.outcome !== "allow") {
    record(decision.outcome === "deny" ? "denied" : "approval_required");
    return toCallToolResult(refused(decision.message), m.motebitId, m.publicKeyHex);
  }
  const invalid = validateArgs(entry.inputSchema, args, name);
  if (invalid !== null) {
    record("invalid");
    return toCallToolResult(refused(invalid), m.motebitId, m.publicKeyHex);
  }

  let outcome: ToolOutcome;
  if (entry.tool.kind === "synthetic") {
    outcome = await entry.tool.impl.run(args as Record<string, unknown>, m, c);
  } else {
    const r = await invokeTool(entry.tool.impl, args as Record<string, unknown>, c.signal);
    outcome = r.ok ? ok(formatToolData(r.data), r.content) : toolError(r.error, r.content);
  }
  record(outcome.kind === "ok" ? "allowed" : outcome.kind === "refused" ? "denied" : "error");
  return toCallToolResult(outcome, m.motebitId, m.publicKeyHex);
}
