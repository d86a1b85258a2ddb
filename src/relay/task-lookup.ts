// A forwarded task's own record at the relay. The reference relay forwards only {prompt, relay_task_id}
// (docs/protocol.md §9.1), so the capability its submitter asked for is read back from the relay as the task's target.
// Nothing is cached: every forward asks again, so a restart never serves a stale answer.
import type { RelayTaskLookup } from "../ports.js";
import type { RelayClient } from "./client.js";
import { relayTaskIdProblem } from "../protocol/index.js";
import type { TraceHeaders } from "../telemetry/trace-context.js";

/** `trace`: the asking task's trace context, sent on as headers so the relay's spans join its trace. */
export function relayTaskLookup(client: RelayClient, motebitId: string): (relayTaskId: string, trace?: TraceHeaders) => Promise<RelayTaskLookup> {
  return async (relayTaskId, trace) => {
    // Never a path segment that moves the request off /task/<id> (motebit_task refuses such ids first).
    const bad = relayTaskIdProblem(relayTaskId);
    if (bad !== null) return { ok: false, why: bad };
    const r = await client.pollTask(motebitId, relayTaskId, trace);
    if (!r.ok) return { ok: false, why: r.error };
    const task = r.body.task;
    const caps = task !== null && typeof task === "object" ? (task as Record<string, unknown>).required_capabilities : undefined;
    if (caps === undefined || caps === null) return { ok: true, requiredCapabilities: [] };
    if (!Array.isArray(caps) || !caps.every((c) => typeof c === "string")) return { ok: false, why: "the relay's task has malformed required_capabilities" };
    return { ok: true, requiredCapabilities: caps };
  };
}
