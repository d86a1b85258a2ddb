// A 2026-07-28 client that negotiated the tasks extension gets a task handle at once for a tool that may run as a
// task; the task runs this same call again, as itself (taskAnswers set). A tool that runs only as a task refuses a
// client that did not negotiate it.
import type { CallContext } from "../call-context.js";
import type { CatalogEntry } from "../catalog.js";
import { RpcError } from "../jsonrpc.js";
import { MISSING_CLIENT_CAPABILITY } from "../stateless/revision.js";
import { TASKS_EXTENSION } from "../stateless/tasks-extension.js";
import { headersOf } from "../../telemetry/trace-scope.js";

export type McpTaskStart = { started: Promise<Record<string, unknown>> } | { error: RpcError };

/** The task's handle, the refusal of a task-only tool, or null: the call runs now. */
export function mcpTaskStart(c: CallContext, entry: CatalogEntry, name: string, args: unknown): McpTaskStart | null {
  if (entry.taskSupport === undefined || c.call.statelessVersion === null || c.call.taskAnswers !== undefined) return null;
  if (c.call.startTask) return { started: c.call.startTask(name, args, headersOf(c.trace)) };
  if (entry.taskSupport !== "required") return null;
  return {
    error: new RpcError(MISSING_CLIENT_CAPABILITY, `Missing required client capability: tool "${name}" runs only as a task (${TASKS_EXTENSION})`, {
      requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } },
    }),
  };
}
