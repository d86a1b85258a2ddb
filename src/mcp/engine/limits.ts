// How much waiting work one caller may hold, and all callers together (issue 19: one caller must not be able to
// switch elicitation or tasks off for everyone). A caller is a principal: the owner, or a peer's callerId under the
// credential that proved it (each named static token is its own caller "static:<name>").
import { holderKey, type Principal } from "../../principal.js";

/** Server-to-client requests (elicitation, sampling, roots) waiting for the client's answer. */
export const WAITS_PER_CALLER = 64;
export const WAITS_CEILING = 1024;

/** MCP tasks not over yet (working or input_required). */
export const TASKS_PER_CALLER = 32;
export const TASKS_CEILING = 256;

/** Task rows one caller keeps readable; past it, that caller's oldest finished rows go first. */
export const TASK_ROWS_PER_CALLER = 1000;

/** A task runs at most this many times: once, then once per host restart that caught it working. */
export const MAX_TASK_ATTEMPTS = 3;

/** The key limits count by. */
export function callerKey(p: Principal): string {
  return holderKey(p);
}
