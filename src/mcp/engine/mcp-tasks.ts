// The tasks extension's lifecycle on one host: a task-supporting tools/call from a client that negotiated tasks
// is answered with a handle at once and run in the background as the same tools/call, by the same principal.
// Its status, the tool's questions (input_required), the answers (tasks/update) and the result live in SQLite;
// tasks/get polls them, tasks/cancel aborts the run (motebit_task then signs a `failed` receipt). After a restart
// a task that was running runs again from its stored call; one waiting for answers keeps waiting.
import { NO_CHANNEL } from "../client-channel.js";
import { InFlight } from "./in-flight.js";
import { INTERNAL_ERROR, INVALID_PARAMS, RpcError, TRANSPORT_ERROR, type JsonRpcResponse } from "../jsonrpc.js";
import type { SessionState } from "../session.js";
import type { StatelessEnvelope } from "../stateless/revision.js";
import type { TaskHost } from "./task-host.js";
import { randomHex } from "../../protocol/index.js";
import { echo } from "../../bounded/echo.js";
import type { Principal } from "../../principal.js";
import type { RpcHandler } from "./rpc-handler.js";
import { callerKey, TASKS_CEILING, TASKS_PER_CALLER } from "./limits.js";
import type { TaskRow, TaskStore } from "./task-store.js";

/** How long a task stays readable after it is created. */
const TASK_TTL_MS = 60 * 60_000;
const POLL_INTERVAL_MS = 500;

const iso = (ms: number) => new Date(ms).toISOString();
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

export class McpTasks implements TaskHost {
  private readonly running = new InFlight();

  constructor(
    private readonly store: TaskStore,
    private readonly rpc: RpcHandler,
  ) {}

  /** After a (re)start: what was running runs again. */
  resume(): void {
    for (const id of this.store.unfinished()) {
      if (this.store.get(id)?.status !== "working") continue;
      this.store.countAttempt(id);
      this.launch(id);
    }
  }

  /** Creates the task (durably, before its handle is returned) and starts it. */
  async create(principal: Principal, envelope: StatelessEnvelope, tool: string, args: unknown): Promise<Record<string, unknown>> {
    // Limits per caller under a host ceiling no caller reaches alone: one caller's tasks never crowd out another's.
    const open = this.store.unfinishedCount(callerKey(principal));
    if (open.caller >= TASKS_PER_CALLER) throw new RpcError(TRANSPORT_ERROR, `Too many tasks running for this caller (limit ${TASKS_PER_CALLER}): wait for one to end or cancel one`);
    if (open.all >= TASKS_CEILING) throw new RpcError(TRANSPORT_ERROR, `Too many tasks running on this host (limit ${TASKS_CEILING}): try again later`);
    const row = this.store.insert({ taskId: randomHex(16), principal, envelope, tool, args, ttlMs: TASK_TTL_MS });
    this.launch(row.taskId);
    return { resultType: "task", ...this.envelopeOf(row) };
  }

  /** tasks/get, tasks/update, tasks/cancel for `asker`: another caller's task is as unknown as a missing one. */
  handle(method: string, params: Record<string, unknown> | undefined, asker: Principal): Record<string, unknown> {
    const taskId = params?.taskId;
    if (typeof taskId !== "string") throw new RpcError(INVALID_PARAMS, `${method} needs a string taskId`);
    const t = this.store.get(taskId, asker);
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
    if (done) this.launch(taskId);
    return {};
  }

  private launch(taskId: string): void {
    const t = this.store.get(taskId);
    if (!t) return;
    const controller = this.running.begin(taskId);
    const session: SessionState = {
      clientCapabilities: t.envelope.clientCapabilities,
      logLevel: null,
      subscriptions: new Set(),
      statelessVersion: t.envelope.protocolVersion,
      taskAnswers: t.answers,
      taskAttempt: t.attempts,
    };
    const message = { jsonrpc: "2.0" as const, id: `task:${taskId}`, method: "tools/call", params: { name: t.tool, arguments: t.args } };
    void this.rpc({ kind: "request", message }, { principal: t.principal, signal: controller.signal, channel: NO_CHANNEL, session })
      .then(
        (response) => this.settle(taskId, response),
        () => this.store.update(taskId, { status: "failed", error: { code: INTERNAL_ERROR, message: "Internal error" } }),
      )
      .finally(() => this.running.end(taskId, controller));
  }

  private settle(taskId: string, response: JsonRpcResponse | null): void {
    if (response === null) return;
    if ("error" in response) {
      this.store.update(taskId, { status: "failed", error: response.error });
      return;
    }
    const result = response.result as Record<string, unknown>;
    if (result.resultType === "input_required") {
      this.store.update(taskId, { status: "input_required", inputRequests: result.inputRequests as Record<string, unknown> });
      return;
    }
    this.store.update(taskId, { status: "completed", result: { ...result, resultType: "complete" } });
  }

  private envelopeOf(t: TaskRow): Record<string, unknown> {
    return { taskId: t.taskId, status: t.status, createdAt: iso(t.createdAt), lastUpdatedAt: iso(t.updatedAt), ttlMs: t.ttlMs, pollIntervalMs: POLL_INTERVAL_MS };
  }

  private detailOf(t: TaskRow): Record<string, unknown> {
    return {
      ...this.envelopeOf(t),
      ...(t.status === "input_required" && t.inputRequests !== null && { inputRequests: t.inputRequests }),
      ...(t.status === "completed" && t.result !== null && { result: t.result }),
      ...(t.status === "failed" && t.error !== null && { error: t.error }),
    };
  }
}
