// The self-test (`--self-test`, MOTEBIT_SELF_TEST=1): after registration, submit a task for one of our served tools
// through the relay and poll until it ends, then report exactly one outcome on one line:
//   self-test <outcome>: <why> (next: <step>)
// passed / task_failed / timeout / auth_verified / skipped / failed (docs/protocol.md §9). Serving goes on whatever it says.
// Under signed tokens the submission names this motebit, and the reference relay never routes a task back to its
// submitter (docs/protocol.md §9.1): an accepted submission with no routing choice ends at auth_verified. Under an API token
// the submission has no submitter, so the relay can route it to us and the whole loop runs.
import type { Clock } from "../ports.js";
import { verifyReceipt } from "../protocol/index.js";
import type { RelayClient } from "./client.js";
import type { SelfTestTask } from "./self-test-task.js";

export type SelfTestOutcome = "passed" | "task_failed" | "timeout" | "auth_verified" | "skipped" | "failed";

export interface SelfTestReport {
  outcome: SelfTestOutcome;
  why: string;
  next: string;
  taskId?: string;
}

const POLL_MS = 750;
const TERMINAL = new Set(["completed", "failed", "denied", "rejected", "expired", "cancelled"]);

export function selfTestLine(r: SelfTestReport): string {
  return `self-test ${r.outcome}: ${r.why} (next: ${r.next})`;
}

/** The outcome when there is nothing to test: no relay configured, or stdio (which never registers). */
export function skippedSelfTest(why: "no_relay" | "stdio"): SelfTestReport {
  return why === "stdio"
    ? { outcome: "skipped", why: "stdio never registers with a relay", next: "serve with --serve-transport http" }
    : { outcome: "skipped", why: "no relay configured", next: "set MOTEBIT_SYNC_URL, or syncUrl in the config file" };
}

export interface SelfTestInputs {
  client: RelayClient;
  motebitId: string;
  publicKeyHex: string;
  endpointUrl: string;
  /** The served tool the task asks for and a prompt it can take; null: nothing a relay may run here. */
  task: SelfTestTask | null;
  timeoutMs: number;
  clock: Clock;
  /** Waits ms (a timer in both hosts; tests may pass a fake). */
  sleep?: (ms: number) => Promise<void>;
  idempotencyKey?: string;
}

const realSleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

export async function runSelfTest(o: SelfTestInputs): Promise<SelfTestReport> {
  const sleep = o.sleep ?? realSleep;
  if (o.task === null) {
    return { outcome: "failed", why: "no served tool a relay may run here, so no task could name one", next: "serve a tool within the auto band for verified peers" };
  }
  const signed = !o.client.usesApiToken;
  const submission = { prompt: o.task.prompt, required_capabilities: [o.task.tool], ...(signed ? { submitted_by: o.motebitId } : {}) };
  const submitted = await o.client.submitTask(o.motebitId, submission, o.idempotencyKey ?? crypto.randomUUID());
  if (!submitted.ok) {
    return { outcome: "failed", why: `submission to ${o.client.syncUrl} failed: ${submitted.error}`, next: submitted.hint };
  }
  const taskId = submitted.body.task_id;
  if (typeof taskId !== "string" || taskId === "") {
    return { outcome: "failed", why: "the relay took the submission but returned no task_id", next: `check that ${o.client.syncUrl} is a motebit relay` };
  }
  if (signed && submitted.body.routing_choice === null) {
    return {
      outcome: "auth_verified",
      why: `the relay accepted task ${taskId} under this motebit's signed token, but it never routes a motebit's own task back to it`,
      next: "set apiToken (MOTEBIT_RELAY_API_TOKEN) to the relay's API token to run the whole loop",
      taskId,
    };
  }
  const deadline = o.clock.now() + o.timeoutMs;
  let lastStatus = typeof taskOf(submitted.body).status === "string" ? String(taskOf(submitted.body).status) : "submitted";
  let lastPollError: string | null = null;
  while (o.clock.now() < deadline) {
    await sleep(Math.min(POLL_MS, Math.max(0, deadline - o.clock.now())));
    const polled = await o.client.pollTask(o.motebitId, taskId);
    if (!polled.ok) {
      lastPollError = polled.error;
      continue;
    }
    const task = taskOf(polled.body);
    const status = typeof task.status === "string" ? task.status : "unknown";
    lastStatus = status;
    if (!TERMINAL.has(status)) continue;
    return { ...(await judge(o, o.task, taskId, status, task, polled.body.receipt)), taskId };
  }
  const seen = lastPollError !== null ? `; last poll: ${lastPollError}` : "";
  const routed = selectedAgent(submitted.body);
  if (routed !== null && routed !== o.motebitId) {
    // Another agent got it: most often a stale registration (a host killed or stopped without deregistering),
    // which the relay keeps routing to until its heartbeats lapse. Waiting longer or checking our URL cannot help.
    return {
      outcome: "timeout",
      why: `task ${taskId} still "${lastStatus}" after ${o.timeoutMs} ms: the relay routed it to motebit ${routed}, not this one${seen}`,
      next: `${routed} is another registration offering ${o.task.tool}, perhaps a host stopped without deregistering: stop or deregister it (or wait until the relay drops it for missed heartbeats), then run the self-test again`,
      taskId,
    };
  }
  return {
    outcome: "timeout",
    why: `task ${taskId} still "${lastStatus}" after ${o.timeoutMs} ms${seen}`,
    next: `check that the relay can reach ${o.endpointUrl}, or raise selfTestTimeoutMs`,
    taskId,
  };
}

/** The agent the relay chose for a submission (`routing_choice.selected_agent`), or null when it names none. */
function selectedAgent(body: Record<string, unknown>): string | null {
  const choice = body.routing_choice;
  if (choice === null || typeof choice !== "object") return null;
  const agent = (choice as Record<string, unknown>).selected_agent;
  return typeof agent === "string" && agent !== "" ? agent : null;
}

/** The relay answers `{task: {...}, receipt}`; older relays put the task fields at the top. */
function taskOf(body: Record<string, unknown>): Record<string, unknown> {
  const t = body.task;
  return t !== null && typeof t === "object" && !Array.isArray(t) ? (t as Record<string, unknown>) : body;
}

function reasonOf(task: Record<string, unknown>): string {
  const r = task.error ?? task.reason ?? task.failure;
  if (typeof r === "string") return r;
  if (r && typeof r === "object") return String((r as Record<string, unknown>).reason ?? (r as Record<string, unknown>).message ?? JSON.stringify(r));
  return "";
}

async function judge(
  o: SelfTestInputs,
  asked: SelfTestTask,
  taskId: string,
  status: string,
  task: Record<string, unknown>,
  receipt: unknown,
): Promise<Omit<SelfTestReport, "taskId">> {
  const reason = reasonOf(task);
  if (status !== "completed") {
    if (/unreachable/i.test(reason)) {
      return {
        outcome: "auth_verified",
        why: `the relay took task ${taskId} but cannot reach ${o.endpointUrl} (${reason})`,
        next: "make that URL reachable from the relay: set publicUrl (MOTEBIT_PUBLIC_URL) to an address it can reach",
      };
    }
    if (/endpoint_refused/i.test(reason)) {
      return {
        outcome: "task_failed",
        why: `the relay reached ${o.endpointUrl} but this motebit refused it (${reason})`,
        next: "set relayTrust (MOTEBIT_RELAY_TRUST) to the relay's public key, and relayId (MOTEBIT_RELAY_ID) to its id",
      };
    }
    const r = receipt === undefined || receipt === null ? null : await receiptProblem(o, taskId, receipt, false);
    const detail = reason !== "" ? reason : r !== null && r.result ? `the receipt says: ${r.result}` : "no reason given";
    return { outcome: "task_failed", why: `task ${taskId} ended "${status}": ${detail}`, next: "check the tool the task ran (its receipt is in the ledger)" };
  }
  if (receipt !== undefined && receipt !== null) {
    const r = await receiptProblem(o, taskId, receipt, true);
    if (r.problem !== null) {
      return { outcome: "task_failed", why: `task ${taskId} completed but its receipt ${r.problem}`, next: r.next ?? "check the tool the task ran, and that the relay forwarded this very task" };
    }
    const used = (receipt as Record<string, unknown>).tools_used;
    if (!(Array.isArray(used) && used.includes(asked.tool))) {
      return {
        outcome: "task_failed",
        why: `task ${taskId} asked for ${asked.tool} but the receipt says it ran ${JSON.stringify(used)}`,
        next: "check that forwarded tasks are routed by the relay task's required_capabilities",
      };
    }
  }
  const checked = receipt !== undefined && receipt !== null ? " with a receipt signed by this motebit and bound to the task" : "";
  return {
    outcome: "passed",
    why: `task ${taskId} (${asked.tool}) went ${o.client.syncUrl} → ${o.endpointUrl} and came back completed${checked}`,
    next: "none: the relay can route tasks to this motebit",
  };
}

/** What is wrong with the receipt the relay returned (null: nothing), and its result text. */
async function receiptProblem(
  o: SelfTestInputs,
  taskId: string,
  receipt: unknown,
  expectCompleted: boolean,
): Promise<{ problem: string | null; result: string | null; next?: string }> {
  const r = receipt as Record<string, unknown>;
  const result = typeof r?.result === "string" ? r.result.slice(0, 200) : null;
  const verdict = await verifyReceipt(receipt);
  if (!verdict.valid) return { problem: `fails verification (${verdict.errors.join("; ")})`, result };
  if (r.public_key !== o.publicKeyHex) {
    const theirs = String(r.public_key).slice(0, 16);
    if (r.motebit_id === o.motebitId) {
      // Our id, another key: the relay still holds an earlier registration of this id (another key file, a re-init).
      return {
        problem: `is signed by key ${theirs}… for this motebit's id, not this motebit's key ${o.publicKeyHex.slice(0, 16)}…: the relay lists another key for ${o.motebitId}`,
        next: "stop whatever else serves this id (another host with the same identity), or remove its registration at the relay (or wait for its heartbeat to lapse), then restart",
        result,
      };
    }
    return {
      problem: `comes from motebit ${String(r.motebit_id)} (key ${theirs}…), not this one: the relay routed the task to another agent offering the tool`,
      next: `stop the other agent (or let its registration lapse) so the relay routes to ${o.endpointUrl}, or serve a tool only this motebit offers`,
      result,
    };
  }
  if (r.relay_task_id !== taskId) return { problem: `is bound to relay_task_id ${JSON.stringify(r.relay_task_id)}, not ${taskId}`, result };
  if (expectCompleted && r.status !== "completed") return { problem: `has status "${String(r.status)}"${result ? `: ${result}` : ""}`, result };
  return { problem: null, result };
}
