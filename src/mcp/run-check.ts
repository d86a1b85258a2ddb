// Whether work accepted earlier may run now: a stored call (an MCP task, resumed after a restart or still running)
// carries the principal as it was when the work was accepted, so its caller's standing is re-read here, and a task
// the host keeps dying under is not started again past the attempt cap.
import { MAX_TASK_ATTEMPTS } from "./engine/limits.js";
import type { CallContext, MotebitContext } from "./context.js";

/** Why this call must not run now, or null when it may. */
export function whyNotRunNow(m: MotebitContext, c: CallContext): string | null {
  const attempt = c.session.taskAttempt;
  if (attempt !== undefined && attempt > MAX_TASK_ATTEMPTS) {
    return `the task was started ${MAX_TASK_ATTEMPTS} times and its host stopped during each; it is not run again`;
  }
  const s = m.callerStanding(c.principal);
  return s.ok ? null : `the caller lost its standing (${s.reason})`;
}
