// What one request holds beside its session (session.ts): the 2026-07-28 revision it speaks, its Mcp-Param-* headers,
// how to start it as an MCP task; and, while an MCP task runs its tool, that task's answers, attempt and run. A
// 2026-07-28 request keeps these here, not in a session it does not have.
import type { McpTaskStarter } from "./stateless/tasks-extension.js";
import type { RunRecord } from "../agent/task.js";

export interface CallState {
  /** Set for a 2026-07-28 request: the version its `_meta` names; null for a session's request. */
  statelessVersion: string | null;
  /** A 2026-07-28 request over HTTP: its `Mcp-Param-*` headers, which tools/call holds to the tool's arguments. */
  paramHeaders?: Record<string, string>;
  /** A 2026-07-28 request whose client negotiated the tasks extension: how to start its call as a task. */
  startTask?: McpTaskStarter;
  /** Set while a task runs its tool: the answers the client gave through tasks/update (trusted: they are our rows). */
  taskAnswers?: Record<string, unknown>;
  /** Set while a task runs its tool: which start this is (1, plus one per restart that resumed it). */
  taskAttempt?: number;
  /** Set while a task runs its tool: the task, and how its last writes join the commit that ends it. */
  runRecord?: RunRecord;
}

/** A request in a session (2025-11-25 and earlier, stdio or HTTP): none of the above. */
export const SESSION_REQUEST: CallState = Object.freeze({ statelessVersion: null });
