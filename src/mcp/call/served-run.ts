// Runs a served tool for tools/call and shapes its result: plain data stays one text block; content and
// structuredContent go out as given, checked against outputSchema. In 2026-07-28 (or an MCP task's run) a tool that
// asked the client something ends the round instead, with an input-required result.
import type { CallContext } from "../call-context.js";
import type { RpcError } from "../jsonrpc.js";
import type { ToolOutcome } from "../tool-outcome.js";
import { ok, okRich, toolError } from "../tool-outcome.js";
import { toolContextFor } from "../tool-context.js";
import type { InputRound } from "../stateless/input-required.js";
import { formatToolData, invokeTool } from "../../tools/invoke.js";
import { schemaProblem } from "../../tools/json-schema.js";
import type { ServedTool, ToolDefinition, ToolResult } from "../../tools/types.js";

export type ServedRun = { kind: "outcome"; outcome: ToolOutcome } | { kind: "input_required" } | { kind: "missing_capability"; error: RpcError };

export async function runServed(tool: ServedTool, args: Record<string, unknown>, c: CallContext, name: string, round: InputRound | undefined): Promise<ServedRun> {
  const r = await invokeTool(tool, args, c.signal, toolContextFor(c, name, round));
  if (round?.needsInput) return { kind: "input_required" };
  if (round?.missingCapability && !r.ok) return { kind: "missing_capability", error: round.missingCapabilityError() };
  return { kind: "outcome", outcome: servedOutcome(tool.definition, r) };
}

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
