// MCP tasks (the io.modelcontextprotocol/tasks extension) as rows in the motebit's SQLite: a task outlives the
// request that created it and a restart of its host. Each row is bound to the principal that created it.
// A synchronous motebit_task call is a row too, from its admission until its receipt commits (`admission` set): it
// never expires, is no task any caller can see or count, and is deleted in the transaction that stores its receipt.
import type { Clock, SqlPort } from "../../ports.js";
import type { Principal } from "../../principal.js";
import type { StatelessEnvelope } from "../stateless/revision.js";
import { callerKey, TASK_ROWS_PER_CALLER } from "./limits.js";
import { addColumnIfMissing, migrate, type StoreSchema } from "../../storage/migrations.js";

export type McpTaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export interface McpTaskRow {
  taskId: string;
  principal: Principal;
  /** Null for a synchronous call (it had no tasks envelope). */
  envelope: StatelessEnvelope | null;
  tool: string;
  args: unknown;
  status: McpTaskStatus;
  createdAt: number;
  updatedAt: number;
  ttlMs: number;
  result: Record<string, unknown> | null;
  error: { code: number; message: string; data?: unknown } | null;
  /** What the tool asked for and the client has not answered yet. */
  inputRequests: Record<string, unknown> | null;
  /** Every answer the client has given, kept for the tool's next run. */
  answers: Record<string, unknown>;
  /** How many times the task has started: 1, plus one per restart that resumed it. */
  attempts: number;
  /** What its tool step ended with, kept by a run stopped before its receipt (motebit_task in direct mode). */
  outcome: unknown;
  /** A synchronous call: what its receipt binds, fixed at its admission (agent/task.ts Admission); null for a task. */
  admission: unknown;
}

/** The run that holds a task: which host instance, and which of the task's runs (a fencing token). */
export interface Lease {
  owner: string;
  generation: number;
}

type Raw = {
  task_id: string;
  principal: string;
  envelope: string;
  tool: string;
  args: string;
  status: McpTaskStatus;
  created_at: number;
  updated_at: number;
  ttl_ms: number;
  result: string | null;
  error: string | null;
  input_requests: string | null;
  answers: string;
  attempts: number;
  outcome: string | null;
  admission: string | null;
};

const parse = <T>(s: string | null): T | null => (s === null ? null : (JSON.parse(s) as T));

/** A row still there for its callers: a task within its TTL, or a synchronous call (until its receipt commits). One `?`: now. */
const LIVE = "(admission IS NOT NULL OR created_at + ttl_ms >= ?)";

export const TERMINAL: ReadonlySet<McpTaskStatus> = new Set(["completed", "failed", "cancelled"]);

export const MCP_TASK_SCHEMA: StoreSchema = {
  store: "mcp_tasks",
  steps: [
    (sql) => {
      sql.run(
        "CREATE TABLE IF NOT EXISTS mcp_tasks (task_id TEXT PRIMARY KEY, caller_id TEXT NOT NULL, principal TEXT NOT NULL, envelope TEXT NOT NULL, " +
          "tool TEXT NOT NULL, args TEXT NOT NULL, status TEXT NOT NULL, created_at INTEGER NOT NULL, updated_at INTEGER NOT NULL, ttl_ms INTEGER NOT NULL, " +
          "result TEXT, error TEXT, input_requests TEXT, answers TEXT NOT NULL, attempts INTEGER NOT NULL DEFAULT 1)",
      );
      sql.run("CREATE INDEX IF NOT EXISTS mcp_tasks_by_caller ON mcp_tasks (caller_id, status)");
      // Rows from before the attempt cap (release 9330a1d) count as started once.
      addColumnIfMissing(sql, "mcp_tasks", "attempts", "INTEGER NOT NULL DEFAULT 1");
    },
    // 2 (issue 30): the lease of the run that holds the task (rows from before have none: lapsed), and the outcome
    // its tool step ended with, kept until the receipt commits.
    (sql) => {
      sql.run("ALTER TABLE mcp_tasks ADD COLUMN lease_owner TEXT");
      sql.run("ALTER TABLE mcp_tasks ADD COLUMN lease_generation INTEGER NOT NULL DEFAULT 0");
      sql.run("ALTER TABLE mcp_tasks ADD COLUMN lease_expires INTEGER NOT NULL DEFAULT 0");
      sql.run("ALTER TABLE mcp_tasks ADD COLUMN outcome TEXT");
    },
    // 3 (issue 42): a synchronous call kept from its admission until its receipt commits (null for a task).
    (sql) => {
      sql.run("ALTER TABLE mcp_tasks ADD COLUMN admission TEXT");
    },
    // 4: a synchronous call's row (written at admission, deleted with its receipt) leaves the caller index out: no
    // query by caller counts it, and every such call paid that index's insert and delete.
    (sql) => {
      sql.run("DROP INDEX mcp_tasks_by_caller");
      sql.run("CREATE INDEX mcp_tasks_by_caller ON mcp_tasks (caller_id, status) WHERE admission IS NULL");
    },
  ],
};

export class McpTaskStore {
  constructor(
    private readonly sql: SqlPort,
    private readonly clock: Clock,
  ) {}

  migrate(): void {
    migrate(this.sql, MCP_TASK_SCHEMA);
  }

  insert(t: Omit<McpTaskRow, "createdAt" | "updatedAt" | "result" | "error" | "inputRequests" | "answers" | "status" | "attempts" | "outcome" | "admission">): McpTaskRow {
    const now = this.clock.now();
    // Expired tasks go when new ones come: the table never grows past what callers may still ask for.
    this.sql.run("DELETE FROM mcp_tasks WHERE created_at + ttl_ms < ? AND admission IS NULL", now);
    const caller = callerKey(t.principal);
    // One caller's rows stay bounded however fast its tasks finish: its oldest finished ones make room.
    this.sql.run(
      "DELETE FROM mcp_tasks WHERE task_id IN (SELECT task_id FROM mcp_tasks WHERE caller_id = ? AND status IN ('completed', 'failed', 'cancelled') AND admission IS NULL " +
        "ORDER BY created_at DESC LIMIT -1 OFFSET ?)",
      caller,
      TASK_ROWS_PER_CALLER - 1,
    );
    this.sql.run(
      "INSERT INTO mcp_tasks (task_id, caller_id, principal, envelope, tool, args, status, created_at, updated_at, ttl_ms, answers) VALUES (?, ?, ?, ?, ?, ?, 'working', ?, ?, ?, '{}')",
      t.taskId,
      caller,
      JSON.stringify(t.principal),
      JSON.stringify(t.envelope),
      t.tool,
      JSON.stringify(t.args ?? {}),
      now,
      now,
      t.ttlMs,
    );
    return this.get(t.taskId)!;
  }

  /** Keeps a synchronous call at its admission, held by `owner` until `expires` (renewed while it runs). */
  admit(t: { taskId: string; principal: Principal; tool: string; args: unknown; admission: unknown }, owner: string, expires: number): Lease {
    const now = this.clock.now();
    this.sql.run(
      "INSERT INTO mcp_tasks (task_id, caller_id, principal, envelope, tool, args, status, created_at, updated_at, ttl_ms, answers, lease_owner, lease_generation, lease_expires, admission) " +
        "VALUES (?, ?, ?, 'null', ?, ?, 'working', ?, ?, 0, '{}', ?, 1, ?, ?)",
      t.taskId,
      callerKey(t.principal),
      JSON.stringify(t.principal),
      t.tool,
      JSON.stringify(t.args ?? {}),
      now,
      now,
      owner,
      expires,
      JSON.stringify(t.admission),
    );
    return { owner, generation: 1 };
  }

  /**
   * The task, or null when it does not exist, has expired, or belongs to another caller than `asker` (when given).
   * A synchronous call is never a task an asker can reach.
   */
  get(taskId: string, asker?: Principal): McpTaskRow | null {
    const [r] = this.sql.all<Raw>(`SELECT * FROM mcp_tasks WHERE task_id = ? AND ${LIVE}`, taskId, this.clock.now());
    if (!r || (asker !== undefined && (r.admission !== null || callerKey(JSON.parse(r.principal) as Principal) !== callerKey(asker)))) return null;
    return {
      taskId: r.task_id,
      principal: JSON.parse(r.principal),
      envelope: JSON.parse(r.envelope),
      tool: r.tool,
      args: JSON.parse(r.args),
      status: r.status,
      createdAt: r.created_at,
      updatedAt: r.updated_at,
      ttlMs: r.ttl_ms,
      result: parse(r.result),
      error: parse(r.error),
      inputRequests: parse(r.input_requests),
      answers: JSON.parse(r.answers),
      attempts: r.attempts,
      outcome: parse(r.outcome),
      admission: parse(r.admission),
    };
  }

  /** Changes a task that is not over yet; false when it already is (a terminal status never changes). */
  update(taskId: string, u: Partial<Pick<McpTaskRow, "status" | "result" | "error" | "inputRequests" | "answers">>): boolean {
    const t = this.get(taskId);
    if (!t || TERMINAL.has(t.status)) return false;
    const next = { ...t, ...u };
    this.sql.run(
      "UPDATE mcp_tasks SET status = ?, result = ?, error = ?, input_requests = ?, answers = ?, updated_at = ? WHERE task_id = ?",
      next.status,
      next.result === null ? null : JSON.stringify(next.result),
      next.error === null ? null : JSON.stringify(next.error),
      next.inputRequests === null ? null : JSON.stringify(next.inputRequests),
      JSON.stringify(next.answers),
      this.clock.now(),
      taskId,
    );
    return true;
  }

  /** Tasks not over yet (working or input_required, not expired): `caller`'s, and everyone's. */
  unfinishedCount(caller: string): { caller: number; all: number } {
    const [r] = this.sql.all<{ mine: number; total: number }>(
      "SELECT COALESCE(SUM(caller_id = ?), 0) AS mine, COUNT(*) AS total FROM mcp_tasks WHERE status IN ('working', 'input_required') AND admission IS NULL AND created_at + ttl_ms >= ?",
      caller,
      this.clock.now(),
    );
    return { caller: Number(r.mine), all: Number(r.total) };
  }

  /** A restart resumes the task: one more attempt, counted durably before it runs. Returns the new count. */
  countAttempt(taskId: string): number {
    this.sql.run("UPDATE mcp_tasks SET attempts = attempts + 1 WHERE task_id = ?", taskId);
    return this.get(taskId)?.attempts ?? 0;
  }

  /**
   * Takes the task for `owner` until `expires`, when it is working and no other run holds a live lease on it.
   * Returns the lease (its generation one past the last), or null: the task is over, waits for input, or is held.
   * `othersLapsed`: a lease held by another owner counts as lapsed (that owner cannot be alive).
   */
  claim(taskId: string, owner: string, expires: number, othersLapsed = false): Lease | null {
    const now = this.clock.now();
    const lapsedBefore = othersLapsed ? Number.MAX_SAFE_INTEGER : now;
    return this.sql.transaction(() => {
      const { changes } = this.sql.run(
        "UPDATE mcp_tasks SET lease_owner = ?, lease_generation = lease_generation + 1, lease_expires = ? " +
          `WHERE task_id = ? AND status = 'working' AND ${LIVE} AND (lease_owner IS NULL OR (lease_owner <> ? AND lease_expires < ?))`,
        owner,
        expires,
        taskId,
        now,
        owner,
        lapsedBefore,
      );
      if (changes === 0) return null;
      const [r] = this.sql.all<{ g: number }>("SELECT lease_generation AS g FROM mcp_tasks WHERE task_id = ?", taskId);
      return { owner, generation: Number(r.g) };
    });
  }

  /** Extends the lease; false when the run no longer holds it (the task went to another run, or is gone). */
  renew(taskId: string, lease: Lease, expires: number): boolean {
    return (
      this.sql.run("UPDATE mcp_tasks SET lease_expires = ? WHERE task_id = ? AND lease_owner = ? AND lease_generation = ?", expires, taskId, lease.owner, lease.generation)
        .changes > 0
    );
  }

  /**
   * The run's last step, in one transaction: only while it still holds the lease, `also` (the task's receipt and
   * ledger row) and the row's new state, and the lease is let go. False: another run holds the task; nothing written.
   */
  finish(taskId: string, lease: Lease, u: Partial<Pick<McpTaskRow, "status" | "result" | "error" | "inputRequests">>, also?: () => void): boolean {
    return this.sql.transaction(() => {
      if (!this.holds(taskId, lease)) return false;
      also?.();
      this.update(taskId, u);
      this.sql.run("UPDATE mcp_tasks SET lease_owner = NULL, lease_expires = 0 WHERE task_id = ?", taskId);
      return true;
    });
  }

  /**
   * A synchronous call's last step, in one transaction: only while the run holds it, `also` (its receipt and ledger
   * row), and the row goes. False: another run holds it; nothing written.
   */
  end(taskId: string, lease: Lease, also?: () => void): boolean {
    return this.sql.transaction(() => {
      // The row goes only while the run holds it: its deletion is the lease check.
      const { changes } = this.sql.run("DELETE FROM mcp_tasks WHERE task_id = ? AND lease_owner = ? AND lease_generation = ?", taskId, lease.owner, lease.generation);
      if (changes === 0) return false;
      also?.();
      return true;
    });
  }

  /** Lets go of the lease (a graceful shutdown): the task stays as it is, for the next run to take at once. */
  release(taskId: string, lease: Lease): void {
    this.sql.run("UPDATE mcp_tasks SET lease_owner = NULL, lease_expires = 0 WHERE task_id = ? AND lease_owner = ? AND lease_generation = ?", taskId, lease.owner, lease.generation);
  }

  /** Keeps the run's tool outcome, while the run holds the lease. */
  keepOutcome(taskId: string, lease: Lease, outcome: unknown): void {
    this.sql.run("UPDATE mcp_tasks SET outcome = ? WHERE task_id = ? AND lease_owner = ? AND lease_generation = ?", JSON.stringify(outcome), taskId, lease.owner, lease.generation);
  }

  holds(taskId: string, lease: Lease): boolean {
    return this.sql.all("SELECT 1 FROM mcp_tasks WHERE task_id = ? AND lease_owner = ? AND lease_generation = ?", taskId, lease.owner, lease.generation).length > 0;
  }

  /** Working tasks not expired and not held by `except` (`othersLapsed`: every other owner's lease has lapsed): `lapsed` ones no run holds; `nextExpiry` is when the soonest live lease lapses (or null). */
  resumable(except: string, othersLapsed: boolean): { lapsed: McpTaskRow[]; nextExpiry: number | null } {
    const now = this.clock.now();
    const rows = this.sql.all<{ task_id: string; lease_owner: string | null; lease_expires: number }>(
      `SELECT task_id, lease_owner, lease_expires FROM mcp_tasks WHERE status = 'working' AND ${LIVE} AND (lease_owner IS NULL OR lease_owner <> ?)`,
      now,
      except,
    );
    const lapsed: McpTaskRow[] = [];
    let nextExpiry: number | null = null;
    for (const r of rows) {
      if (r.lease_owner !== null && r.lease_expires >= now && !othersLapsed) {
        nextExpiry = nextExpiry === null ? r.lease_expires : Math.min(nextExpiry, r.lease_expires);
        continue;
      }
      const t = this.get(r.task_id);
      if (t) lapsed.push(t);
    }
    return { lapsed, nextExpiry };
  }
}
