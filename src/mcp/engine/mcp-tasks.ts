// The tasks extension's lifecycle on one host: a task-supporting tools/call from a client that negotiated tasks
// is answered with a handle at once and run in the background as the same tools/call, by the same principal.
// Its status, the tool's questions (input_required), the answers (tasks/update) and the result live in SQLite;
// tasks/get polls them, tasks/cancel aborts the run (motebit_task then signs a `failed` receipt).
// Every run holds a lease on its row (mcp-task-store.ts), renewed while it runs: a task runs again from its stored
// call only once its lease has lapsed (its host died), never beside a live run (a restart in place, a second host
// on the same data). A run that lost its lease is aborted and writes nothing; its last step (the receipt, its
// ledger row, the row's end state) commits in one transaction, only while it holds the lease.
// One waiting for answers keeps waiting. An owner's task (stdio) resumes only in an owner host.
// A synchronous motebit_task call (no tasks extension) is kept the same way from its admission (keepCall), under a
// lease of its own: its receipt commits with the row's deletion. One its host stopped during is not run again (its
// caller is gone): the next start's resume concludes it, signing the kept outcome or an "interrupted" failure.
import { NO_CHANNEL } from "../client-channel.js";
import { InFlight } from "./in-flight.js";
import { INTERNAL_ERROR, INVALID_PARAMS, RpcError, TRANSPORT_ERROR, type JsonRpcResponse } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { CallState } from "../call-state.js";
import type { StatelessEnvelope } from "../stateless/revision.js";
import type { McpTaskHost } from "./mcp-task-host.js";
import { randomHex } from "../../protocol/index.js";
import { echo } from "../../bounded/echo.js";
import type { Principal } from "../../principal.js";
import type { MessageHandler } from "./message-handler.js";
import { callerKey, TASKS_CEILING, TASKS_PER_CALLER } from "./limits.js";
import type { Clock } from "../../ports.js";
import type { Outcome } from "../../agent/task-receipt.js";
import type { Admission } from "../../agent/task.js";
import type { Lease, McpTaskRow, McpTaskStore } from "./mcp-task-store.js";
import type { KeptCall } from "./mcp-task-host.js";
import { count } from "../../telemetry/instruments.js";

/** How long a task stays readable after it is created. */
const TASK_TTL_MS = 60 * 60_000;
const POLL_INTERVAL_MS = 500;

const iso = (ms: number) => new Date(ms).toISOString();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** How long a run's lease lasts unless renewed; renewed three times within it. */
export const TASK_LEASE_MS = 15_000;

/** Which principals a host serves: the owner (stdio) or peers (HTTP). */
export type HostKind = "owner" | "peer";

export interface McpTasksOptions {
  host: HostKind;
  leaseMs?: number;
  /**
   * Who holds this host's leases. Default: this instance. A host that restarts in place (a Durable Object's fleet
   * PATCH) passes one id for all its instances, so the new one leaves the runs of the old one to finish.
   */
  owner?: string;
  /** No other host can be alive on this storage (a Durable Object): a lease another owner holds is already lapsed. */
  sole?: boolean;
  /** Aborted when the host stops this motebit for good (retired): its runs end, none starts again. */
  stopped?: AbortSignal;
  /**
   * Whether `taskId` was `caller`'s task at a retired motebit that had this name (a fleet name deleted and made
   * again): tasks/get then says so instead of "unknown task".
   */
  retired?: (caller: string, taskId: string) => boolean;
}

export class McpTasks implements McpTaskHost {
  private readonly running = new InFlight();
  private readonly owner: string;
  private readonly leaseMs: number;
  private recheck: ReturnType<typeof setTimeout> | null = null;
  /** Set by handOver: runs end without writing, and let go of their leases. */
  private handingOver = false;
  /** The runs going on, each settled once its lease is let go or its end written. */
  private readonly runs = new Map<string, Promise<void>>();
  /** The synchronous calls kept and running here, and the one timer that renews all their leases (none when empty). */
  private readonly calls = new Map<string, Lease>();
  private callRenewal: ReturnType<typeof setInterval> | null = null;

  constructor(
    private readonly store: McpTaskStore,
    private readonly motebit: MessageHandler,
    private readonly clock: Clock,
    private readonly o: McpTasksOptions,
  ) {
    this.leaseMs = o.leaseMs ?? TASK_LEASE_MS;
    this.owner = o.owner ?? randomHex(8);
  }

  /** After a (re)start: what was running, and no live run holds, runs again; held ones are looked at when their lease lapses. */
  resume(): void {
    if (this.recheck !== null) clearTimeout(this.recheck);
    this.recheck = null;
    if (this.o.stopped?.aborted || this.handingOver) return;
    const { lapsed, nextExpiry } = this.store.resumable(this.owner, this.o.sole === true);
    for (const t of lapsed) if (this.mayRunHere(t)) this.launch(t.taskId, true);
    if (nextExpiry === null) return;
    this.recheck = setTimeout(() => this.resume(), Math.max(nextExpiry - this.clock.now(), 0) + 50);
    // Node only: a lease held elsewhere never keeps this process alive (workerd's timers have no unref).
    (this.recheck as { unref?: () => void }).unref?.();
  }

  /** An owner's task runs only where the owner is (its localOnly tools exist only there); a peer's anywhere. */
  private mayRunHere(t: McpTaskRow): boolean {
    return t.principal.kind !== "owner" || this.o.host === "owner";
  }

  /** Creates the task (durably, before its handle is returned) and starts it. */
  async create(principal: Principal, envelope: StatelessEnvelope, tool: string, args: unknown): Promise<Record<string, unknown>> {
    // Limits per caller under a host ceiling no caller reaches alone: one caller's tasks never crowd out another's.
    const open = this.store.unfinishedCount(callerKey(principal));
    if (open.caller >= TASKS_PER_CALLER) throw new RpcError(TRANSPORT_ERROR, `Too many tasks running for this caller (limit ${TASKS_PER_CALLER}): wait for one to end or cancel one`);
    if (open.all >= TASKS_CEILING) throw new RpcError(TRANSPORT_ERROR, `Too many tasks running on this host (limit ${TASKS_CEILING}): try again later`);
    const row = this.store.insert({ taskId: randomHex(16), principal, envelope, tool, args, ttlMs: TASK_TTL_MS });
    this.launch(row.taskId, false);
    return { resultType: "task", ...this.envelopeOf(row) };
  }

  /**
   * A synchronous call of `tool`, kept once admitted (renewing its lease while it runs). `end`, when the request is
   * over: a call admitted that ended without its receipt (its run threw) is concluded at once, as after a restart.
   */
  keepCall(principal: Principal, tool: string, args: unknown): KeptCall {
    let taskId: string | null = null;
    let lease: Lease | null = null;
    let committed = false;
    return {
      admit: (admission: Admission) => {
        // Never shown to anyone (no task handle): randomUUID, which costs a fraction of randomHex's getRandomValues.
        const id = (taskId = crypto.randomUUID());
        const held = (lease = this.store.admit({ taskId: id, principal, tool, args, admission }, this.owner, this.clock.now() + this.leaseMs));
        this.holdCall(id, held);
        return {
          id,
          kept: null,
          keep: (outcome) => this.store.keepOutcome(id, held, outcome),
          commitWithEnd: (write) => {
            committed = true;
            this.letGoCall(id);
            this.store.end(id, held, write);
          },
        };
      },
      end: () => {
        if (taskId === null || lease === null || committed) return;
        this.letGoCall(taskId);
        this.store.release(taskId, lease);
        this.launch(taskId, true);
      },
    };
  }

  /** One timer renews every kept call's lease while any runs: no timer per call on the hot path. */
  private holdCall(taskId: string, lease: Lease): void {
    this.calls.set(taskId, lease);
    if (this.callRenewal !== null) return;
    this.callRenewal = setInterval(() => {
      for (const [id, held] of this.calls) this.store.renew(id, held, this.clock.now() + this.leaseMs);
    }, this.leaseMs / 3);
    (this.callRenewal as { unref?: () => void }).unref?.();
  }

  private letGoCall(taskId: string): void {
    this.calls.delete(taskId);
    if (this.calls.size > 0 || this.callRenewal === null) return;
    clearInterval(this.callRenewal);
    this.callRenewal = null;
  }

  /** tasks/get, tasks/update, tasks/cancel for `asker`: another caller's task is as unknown as a missing one. */
  handle(method: string, params: Record<string, unknown> | undefined, asker: Principal): Record<string, unknown> {
    const taskId = params?.taskId;
    if (typeof taskId !== "string") throw new RpcError(INVALID_PARAMS, `${method} needs a string taskId`);
    const t = this.store.get(taskId, asker);
    if (!t && this.o.retired?.(callerKey(asker), taskId)) {
      throw new RpcError(INVALID_PARAMS, `Task ${echo(taskId)} ended when the motebit that ran it was retired; this name now serves another motebit, with another key`);
    }
    if (!t) throw new RpcError(INVALID_PARAMS, `Unknown task: ${echo(taskId)}`);
    if (method === "tasks/get") return this.detailOf(t);
    if (method === "tasks/cancel") {
      if (this.store.update(taskId, { status: "cancelled", inputRequests: null })) this.running.cancel(taskId, "cancelled by the client");
      return {};
    }
    // tasks/update: answers to what the task asked; the task goes on once every question has its answer.
    const responses = params?.inputResponses;
    if (!isObject(responses)) throw new RpcError(INVALID_PARAMS, "tasks/update needs inputResponses, an object keyed by input request");
    if (t.status !== "input_required" || t.inputRequests === null) return {};
    const answers = { ...t.answers };
    const pending = { ...t.inputRequests };
    for (const [k, v] of Object.entries(responses)) {
      if (!Object.hasOwn(pending, k)) continue;
      if (!isObject(v)) throw new RpcError(INVALID_PARAMS, `inputResponses.${echo(k)} must be an object (the client's result for that request)`);
      answers[k] = v;
      delete pending[k];
    }
    const done = Object.keys(pending).length === 0;
    this.store.update(taskId, { answers, inputRequests: done ? null : pending, status: done ? "working" : "input_required" });
    if (done) this.launch(taskId, false);
    return {};
  }

  private launch(taskId: string, resumed: boolean): void {
    const before = this.store.get(taskId);
    if (!before || !this.mayRunHere(before) || this.o.stopped?.aborted || this.handingOver) return;
    const lease = this.store.claim(taskId, this.owner, this.clock.now() + this.leaseMs, resumed && this.o.sole === true);
    if (lease === null) return;
    // A resumed task counts its start durably before it runs (the attempt cap).
    if (resumed) this.store.countAttempt(taskId);
    count(this.motebit.telemetry, (i) => i.tasksResumed, resumed ? 1 : 0);
    count(this.motebit.telemetry, (i) => i.tasksRunning);
    const t = this.store.get(taskId)!;
    // A synchronous call's row: this run concludes it (its caller is gone), and its end deletes the row.
    const admission = t.admission as Admission | null;
    const controller = this.running.begin(taskId, this.o.stopped);
    const renewal = setInterval(() => {
      if (!this.store.renew(taskId, lease, this.clock.now() + this.leaseMs)) controller.abort(new Error("the task was taken over by another run"));
    }, this.leaseMs / 3);
    // What the run commits at its end (motebit_task: the receipt and its ledger row), held for the last step.
    const held: (() => void)[] = [];
    const session: SessionState = { clientCapabilities: t.envelope?.clientCapabilities ?? null, logLevel: null, subscriptions: new Set() };
    const call: CallState = {
      statelessVersion: t.envelope?.protocolVersion ?? null,
      taskAnswers: t.answers,
      taskAttempt: t.attempts,
      runRecord: {
        id: taskId,
        commitWithEnd: (write) => void held.push(write),
        kept: t.outcome as Outcome | null,
        // What a run stopped by a shutdown ends with is the stop, not the tool's outcome: it is not kept.
        keep: (outcome) => void (this.handingOver || this.store.keepOutcome(taskId, lease, outcome)),
        ...(admission !== null && { concludes: admission }),
      },
    };
    const also = () => held.splice(0).forEach((write) => write());
    // The starting request's trace context, when it had one: this run's span joins that trace.
    const meta = t.envelope?.trace === undefined ? {} : { _meta: { ...t.envelope.trace } };
    const message = { jsonrpc: "2.0" as const, id: `task:${taskId}`, method: "tools/call", params: { name: t.tool, arguments: t.args, ...meta } };
    const run = this.motebit.handleClassified({ kind: "request", message }, { principal: t.principal, signal: controller.signal, channel: NO_CHANNEL, session, call })
      .then(
        (response) =>
          void (this.handingOver ? this.store.release(taskId, lease) : admission !== null ? this.store.end(taskId, lease, also) : this.settle(taskId, lease, response, also)),
        () =>
          void (this.handingOver
            ? this.store.release(taskId, lease)
            : admission !== null
              ? this.store.end(taskId, lease, also)
              : this.store.finish(taskId, lease, { status: "failed", error: { code: INTERNAL_ERROR, message: "Internal error" } }, also)),
      )
      .finally(() => {
        count(this.motebit.telemetry, (i) => i.tasksRunning, -1);
        clearInterval(renewal);
        this.running.end(taskId, controller);
        this.runs.delete(taskId);
      });
    this.runs.set(taskId, run);
  }

  async handOver(graceMs: number): Promise<void> {
    this.handingOver = true;
    if (this.recheck !== null) clearTimeout(this.recheck);
    this.recheck = null;
    const runs = [...this.runs.values()];
    for (const taskId of [...this.runs.keys()]) this.running.cancel(taskId, "the host is shutting down");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([Promise.allSettled(runs), new Promise((r) => (timer = setTimeout(r, graceMs)))]);
    clearTimeout(timer);
  }

  private settle(taskId: string, lease: Lease, response: JsonRpcResponse | null, also: () => void): void {
    if (response === null) return;
    if ("error" in response) {
      this.store.finish(taskId, lease, { status: "failed", error: response.error }, also);
      return;
    }
    const result = response.result as Record<string, unknown>;
    if (result.resultType === "input_required") {
      this.store.finish(taskId, lease, { status: "input_required", inputRequests: result.inputRequests as Record<string, unknown> }, also);
      return;
    }
    this.store.finish(taskId, lease, { status: "completed", result: { ...result, resultType: "complete" } }, also);
  }

  private envelopeOf(t: McpTaskRow): Record<string, unknown> {
    return { taskId: t.taskId, status: t.status, createdAt: iso(t.createdAt), lastUpdatedAt: iso(t.updatedAt), ttlMs: t.ttlMs, pollIntervalMs: POLL_INTERVAL_MS };
  }

  private detailOf(t: McpTaskRow): Record<string, unknown> {
    return {
      ...this.envelopeOf(t),
      ...(t.status === "input_required" && t.inputRequests !== null && { inputRequests: t.inputRequests }),
      ...(t.status === "completed" && t.result !== null && { result: t.result }),
      ...(t.status === "failed" && t.error !== null && { error: t.error }),
    };
  }
}
