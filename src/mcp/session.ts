// What one MCP session holds besides its row: what the client said it can do, the log level it asked for,
// and the resources it watches. The host keeps one per session (stdio: one; HTTP: one per Mcp-Session-Id)
// and passes it per request, beside the principal.

import { LOG_LEVELS, type LogLevel } from "../tools/log-level.js";
import type { TaskStarter } from "./stateless/tasks-extension.js";
import type { TaskRun } from "../agent/task.js";

export interface SessionState {
  /** `capabilities` of the client's initialize; null until then (or after a host restart). */
  clientCapabilities: Record<string, unknown> | null;
  /** notifications/message below this level are not sent; null: none are (a 2026-07-28 request that asked for none). */
  logLevel: LogLevel | null;
  /** Resource URIs this session subscribed to. */
  subscriptions: Set<string>;
  /** Set for a 2026-07-28 request, which is its own session: the version its `_meta` names. */
  statelessVersion: string | null;
  /** A 2026-07-28 request over HTTP: its `Mcp-Param-*` headers, which tools/call holds to the tool's arguments. */
  paramHeaders?: Record<string, string>;
  /** A 2026-07-28 request whose client negotiated the tasks extension: how to start its call as a task. */
  startTask?: TaskStarter;
  /** Set while a task runs its tool: the answers the client gave through tasks/update (trusted: they are our rows). */
  taskAnswers?: Record<string, unknown>;
  /** Set while a task runs its tool: which start this is (1, plus one per restart that resumed it). */
  taskAttempt?: number;
  /** Set while a task runs its tool: the task, and how its last writes join the commit that ends it. */
  taskRun?: TaskRun;
}

/** Logs at info and above reach a client that never called logging/setLevel. */
export function newSessionState(): SessionState {
  return { clientCapabilities: null, logLevel: "info", subscriptions: new Set(), statelessVersion: null };
}

export function logLevelAtLeast(level: LogLevel, threshold: LogLevel | null): boolean {
  return threshold !== null && LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}

export function clientSupports(s: SessionState, capability: "elicitation" | "sampling" | "roots"): boolean {
  const caps = s.clientCapabilities;
  return caps !== null && typeof caps[capability] === "object" && caps[capability] !== null;
}
