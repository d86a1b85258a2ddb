// Whether work may run now: a stored call (an MCP task, resumed after a restart or still running) carries the
// principal as it was when the work was accepted, so its caller's standing is the one read now, and a task the
// host keeps dying under is not started again past the attempt cap.
import { MAX_TASK_ATTEMPTS } from "./engine/limits.js";
import type { SessionState } from "./session.js";
import type { Standing } from "../principal.js";

/** Why this call must not run now, or null when it may. */
export function whyNotRunNow(standing: Standing, session: SessionState): string | null {
  const attempt = session.taskAttempt;
  if (attempt !== undefined && attempt > MAX_TASK_ATTEMPTS) {
    return `the task was started ${MAX_TASK_ATTEMPTS} times and its host stopped during each; it is not run again`;
  }
  return standing.ok ? null : `the caller lost its standing (${standing.reason})`;
}
