// A motebit task from admission to ledger, in direct and AI mode alike: the standing check, the delegation token,
// the dispatch token, relay_task_id binding, the capability lookup at the relay, the run, one signed receipt,
// the ledger. The MCP tool motebit_task (src/mcp/synthetic/task.ts) is an adapter over this.
import type { RelayTaskLookup } from "../ports.js";
import { isOwner, principalLabel, type Principal } from "../principal.js";
import { relayTaskIdProblem, verifyDelegationToken, type ExecutionReceipt, type Signer } from "../protocol/index.js";
import { aiModules } from "./ai-modules.js";
import type { ReceiptLedger } from "../log/receipt-ledger.js";
import { taskGate } from "./task-gate.js";
import { inDelegatedScope } from "../policy/admission/admit.js";
import { failed, signTaskReceipt, type Outcome } from "./task-receipt.js";
import { runTask } from "./task-runner.js";
import { aiTurnTools, publicContext, turnMemories, type TurnMotebit } from "./turn-context.js";
import { tracedGate } from "../telemetry/admission-span.js";
import { headersOf, type TraceScope } from "../telemetry/trace-scope.js";
import type { TraceHeaders } from "../telemetry/trace-context.js";

export const RELAY_TASK_ID_REFUSAL = "Denied: relay_task_id is accepted only from the relay or with a valid dispatch_token";

/**
 * Verifies a `task:dispatch` token (signature, claims, single-use jti) the way the host verifies bearer tokens, and
 * that `presenter` is the one it admits: the relay itself, or the caller whose motebit_id is the token's `mid`.
 */
export type DispatchTokenVerifier = (token: string, presenter: Principal) => Promise<{ ok: true } | { ok: false; reason: string }>;

/** What a task needs from the motebit (the MCP layer's MotebitContext is one). */
export interface TaskMotebit extends TurnMotebit {
  readonly signer: Signer;
  readonly deviceId: string;
  readonly ledger: ReceiptLedger;
  /** The task budget, decided once (settings/ai.ts taskTimeoutFor). */
  readonly taskTimeoutMs: number;
  readonly verifyDispatchToken: DispatchTokenVerifier | null;
  readonly relayTaskLookup: ((relayTaskId: string, trace?: TraceHeaders) => Promise<RelayTaskLookup>) | null;
}

/** motebit_task's arguments (docs/protocol.md §6). */
export interface MotebitTaskArgs {
  prompt: string;
  delegation_token?: string;
  required_capabilities?: string[];
  relay_task_id?: string;
  dispatch_token?: string;
}

/**
 * The durable record a motebit_task run commits with: the MCP task this call runs as (src/mcp/engine/mcp-tasks.ts),
 * or a synchronous call kept at its admission (AdmitCall). Its id, bound to the one receipt it may ever have, and
 * how the receipt's writes join the task's last step, so the receipt, its ledger row and the task's end state
 * commit together (or, when the run lost the task to another, not at all).
 */
export interface RunRecord {
  id: string;
  commitWithEnd(write: () => void): void;
  /** What the tool step (direct mode) or the turn (AI mode) ended with, kept by an earlier run stopped before its receipt. */
  kept: Outcome | null;
  /** Keeps the tool step's outcome durably, the moment it is known: a run stopped after it signs it, never re-runs it. */
  keep(outcome: Outcome): void;
  /**
   * Set when this run concludes a synchronous call whose host stopped during it (its caller is gone): nothing runs
   * again; the kept outcome, or an "interrupted" failure, is signed with what the call bound at its admission.
   */
  concludes?: Admission;
}

/** What a synchronous call's receipt binds, fixed when the call was admitted. */
export interface Admission {
  submittedAt: number;
  relayTaskId?: string;
  delegatedScope?: string;
  note?: string;
}

/**
 * Persists a synchronous call (no tasks extension) the moment it is admitted, as a run of its own: a host stopped
 * during it signs, at its next start, what happened. The run's receipt commits with the end of that record.
 */
export type AdmitCall = (admission: Admission) => RunRecord;

/** The result of a receipt whose host stopped before the task ended and before its tool step's outcome was kept. */
export const INTERRUPTED =
  "Error: interrupted: the host stopped before this task ended, and no outcome of its tool step was kept (the step may have begun); nothing was run again";

/** Who asks, and what the transport lends the task. */
export interface TaskRequest {
  principal: Principal;
  signal: AbortSignal;
  /**
   * Why work accepted earlier may not run now (standing lost, attempt cap), or null, as read once for this call: the
   * admission and a direct run's one tool step, which follows it, read this.
   */
  standing: () => string | null;
  /** The same, read afresh: before each tool step of an AI turn, which comes after a model call (trust may change meanwhile). */
  standingNow: () => string | null;
  /** Stages, for a client that asked for progress. */
  progress: (done: number, total: number, message: string) => void;
  /** Set when the call runs as an MCP task. */
  run?: RunRecord;
  /** Set for a synchronous call on a host that keeps its calls (session-engine.ts): persists it at admission. */
  admit?: AdmitCall;
  /** The task's span, when telemetry is on: its gate, tool, model and signing spans hang under it. */
  trace?: TraceScope;
}

/** A signed receipt, or a refusal before any work (no receipt: nothing was accepted). */
export type TaskAnswer = { ok: true; receipt: ExecutionReceipt } | { ok: false; refusal: string };

export async function runMotebitTask(m: TaskMotebit, a: MotebitTaskArgs, r: TaskRequest): Promise<TaskAnswer> {
  // A malformed relay_task_id is refused before any token is checked or spent: nothing is accepted, nothing lost.
  const badRelayTaskId = a.relay_task_id === undefined ? null : relayTaskIdProblem(a.relay_task_id);
  if (badRelayTaskId !== null) return { ok: false, refusal: `Invalid arguments for tool "motebit_task": ${badRelayTaskId}` };
  const caller = principalLabel(r.principal);
  const fromRelay = r.principal.kind === "peer" && r.principal.via === "relay";
  // Set at admission for a synchronous call: from then on it is a run whose receipt commits with its end.
  let run = r.run;
  // A resumed task that already has its receipt answers with it: the work never runs twice.
  const kept = run === undefined ? undefined : m.ledger.forRun(run.id);
  if (kept) return { ok: true, receipt: kept.receipt };
  const store = (receipt: ExecutionReceipt, also?: (append: () => void) => void) => {
    const append = () => m.ledger.append(receipt, caller, run?.id);
    const write = also === undefined ? append : () => also(append);
    if (run === undefined) write();
    else run.commitWithEnd(write);
  };
  // The owner's calls come from its MCP client, whose model chose the call: "ai-loop", the weaker consent signal.
  // "user-tap" would claim the person chose this task, which nothing here can know.
  const fields = { prompt: a.prompt, signer: m.signer, motebitId: m.motebitId, deviceId: m.deviceId, clock: m.clock, invocationOrigin: isOwner(r.principal) ? ("ai-loop" as const) : ("agent-to-agent" as const), trace: r.trace };
  // A synchronous call its host stopped during: what it bound at admission is signed, with the outcome if kept.
  if (run?.concludes) {
    const { submittedAt, ...bound } = run.concludes;
    const outcome = run.kept ?? failed(INTERRUPTED);
    const receipt = await signTaskReceipt({ ...fields, ...bound, memoriesFormed: outcome.memoriesFormed ?? 0 }, outcome, submittedAt);
    store(receipt);
    return { ok: true, receipt };
  }
  // Work accepted earlier (a resumed or long task) whose caller lost its standing, or past the attempt cap:
  // nothing runs, and the signed receipt says why. No relay_task_id is bound: nothing vouched for it.
  // A tool step that already ran is signed as it ended, whatever has changed since: the receipt says what happened.
  const stop = run?.kept ? null : r.standing();
  if (stop !== null) {
    const submittedAt = m.clock.now();
    run ??= r.admit?.({ submittedAt });
    const receipt = await signTaskReceipt(fields, failed(`Error: not run: ${stop}`), submittedAt);
    store(receipt);
    return { ok: true, receipt };
  }
  let caps = a.required_capabilities ?? [];
  let delegatedScope: string | undefined;
  // docs/protocol.md §6 order: the delegation token first, then the dispatch token, then the work.
  if (a.delegation_token !== undefined) {
    const v = await verifyDelegationToken(a.delegation_token, { now: m.clock.now(), delegateId: m.motebitId, requiredCapabilities: caps });
    if (!v.ok) return { ok: false, refusal: v.error };
    delegatedScope = v.token.scope;
  }
  const relayTaskId = a.relay_task_id;
  // The dispatch token before anything is answered from the ledger: a forged one learns nothing.
  if (a.dispatch_token !== undefined) {
    if (m.verifyDispatchToken === null) return { ok: false, refusal: "Denied: this host does not accept dispatch tokens" };
    const d = await m.verifyDispatchToken(a.dispatch_token, r.principal);
    if (!d.ok) return { ok: false, refusal: `Denied: dispatch token refused (${d.reason})` };
  }
  if (relayTaskId !== undefined) {
    // A relay task id is signed into the receipt only when the relay vouches for it: it asks, or admitted the work.
    if (!fromRelay && a.dispatch_token === undefined) return { ok: false, refusal: RELAY_TASK_ID_REFUSAL };
    // A relay retrying the same task gets the receipt it was already given: the work never runs twice.
    const earlier = m.ledger.findRelayTask(relayTaskId, caller);
    if (earlier) return { ok: true, receipt: earlier.receipt };
  }
  // The reference relay forwards {prompt, relay_task_id} only: what the submitter asked for is in its task record.
  let note: string | undefined;
  if (relayTaskId !== undefined && caps.length === 0 && fromRelay) {
    const found = m.relayTaskLookup === null ? { ok: false as const, why: "this motebit runs no relay loop (syncUrl) to ask" } : await m.relayTaskLookup(relayTaskId, headersOf(r.trace));
    if (found.ok) caps = found.requiredCapabilities;
    else note = `Note: the relay's record of task ${relayTaskId} could not be read (${found.why}); the tool was chosen by the default rule.`;
  }
  // Admitted: a synchronous call is kept from here, so a host stopped during it still signs exactly one receipt.
  run ??= r.admit?.({ submittedAt: m.clock.now(), relayTaskId, delegatedScope, note });
  r.progress(1, 3, "gate passed");
  const common = { ...fields, relayTaskId, delegatedScope, note, timeoutMs: m.taskTimeoutMs, signal: r.signal, standing: r.standing };
  r.progress(2, 3, "tool running");
  let receipt: ExecutionReceipt;
  if (m.llm !== null) {
    // AI mode: the AI SDK loads only here, so direct mode never pays for it. The turn's audit rows are written
    // with the receipt, in one transaction; a turn that throws still leaves its rows.
    const { runAiTask } = await aiModules();
    const audit = m.audit.batch();
    const t = aiTurnTools(m, r.principal, delegatedScope, audit);
    // The capabilities asked for are said to the model and offered first.
    const asked = caps.length > 0 ? `\nThe submitter asked for: ${caps.join(", ")}. Use ${caps[0]} for this task.` : "";
    const offered = [...t.offered.filter((n) => caps.includes(n)), ...t.offered.filter((n) => !caps.includes(n))];
    const signed = await runAiTask({
      ...common,
      llm: m.llm,
      system: publicContext(m, r.principal) + asked,
      tools: t.tools,
      offered,
      gate: tracedGate(r.trace, t.gate),
      standing: r.standingNow,
      onToolCall: t.onToolCall,
      onTurn: t.recordTurn,
      log: t.log,
      // As in motebit_query: the turn's facts go to the caller's scope; only the owner's count (product document).
      memories: { formation: turnMemories(m, r.principal), counted: isOwner(r.principal) },
      // The turn's audit rows are written with the kept outcome: a resumed run signs it and runs nothing again.
      checkpoint: run && { kept: run.kept, keep: (o: Outcome) => audit.commit(() => run.keep(o)) },
    }).catch((e: unknown) => {
      audit.commit();
      throw e;
    });
    store(signed, (append) => audit.commit(append));
    receipt = signed;
  } else {
    const served = m.registry.list(r.principal.kind);
    // A delegation scopes the work itself, not only the capabilities named: only tools inside it may run.
    const tools = served.filter((t) => inDelegatedScope(delegatedScope, t.definition.name));
    const checkpoint = run && { kept: run.kept, keep: (o: Outcome) => run.keep(o) };
    receipt = await runTask({ ...common, requiredCapabilities: caps, tools, gate: tracedGate(r.trace, taskGate(m, r.principal, delegatedScope)), checkpoint });
    store(receipt);
  }
  r.progress(3, 3, "receipt signed");
  return { ok: true, receipt };
}
