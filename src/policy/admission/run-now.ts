// Whether work may run now: a stored call (an MCP task, resumed after a restart or still running) carries the
// principal as it was when the work was accepted, so its caller's standing is the one read now, and a task the
// host keeps dying under is not started again past the attempt cap. admit.ts takes the answer as its `stop`.
import type { Standing } from "../../principal.js";

/** Why this call must not run now, or null when it may. `attempt`: which start of a task this is; `maxAttempts`: the cap. */
export function whyNotRunNow(standing: Standing, attempt: number | undefined, maxAttempts: number): string | null {
  if (attempt !== undefined && attempt > maxAttempts) {
    return `the task was started ${maxAttempts} times and its host stopped during each; it is not run again`;
  }
  return standing.ok ? null : `the caller lost its standing (${standing.reason})`;
}
