// The MCP tasks extension (io.modelcontextprotocol/tasks) as the core sees it: which tools may run as tasks,
// whether a request's client negotiated the extension, and the host's way to start one.
import type { TraceHeaders } from "../../telemetry/trace-context.js";

export const TASKS_EXTENSION = "io.modelcontextprotocol/tasks";

/** `optional`: a task when the client negotiated tasks, else synchronous. `required`: only as a task. */
export type McpTaskSupport = "optional" | "required";

/**
 * Given by the host to a 2026-07-28 request whose client negotiated tasks: starts the call as a task, answers its
 * handle. `trace`: the starting request's trace context, when telemetry is on: the task's runs join that trace.
 */
export type McpTaskStarter = (tool: string, args: unknown, trace?: TraceHeaders) => Promise<Record<string, unknown>>;

/** The extension's own methods, answered by the host's task store rather than the dispatcher. */
export const MCP_TASK_METHODS: ReadonlySet<string> = new Set(["tasks/get", "tasks/update", "tasks/cancel"]);

export function declaresMcpTasks(clientCapabilities: Record<string, unknown> | null): boolean {
  const ext = clientCapabilities?.extensions as Record<string, unknown> | undefined;
  return typeof ext === "object" && ext !== null && typeof ext[TASKS_EXTENSION] === "object" && ext[TASKS_EXTENSION] !== null;
}

export function isMcpTaskSupport(v: unknown): v is McpTaskSupport {
  return v === "optional" || v === "required";
}
