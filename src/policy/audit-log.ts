// One row per served-tool decision: who asked for what, and what the gate (or the tool) did with it.

import type { SqlPort } from "../ports.js";
import { addColumnIfMissing, migrate, type StoreSchema } from "../storage/migrations.js";

/** `input_required`: a 2026-07-28 round that ended asking the client for input; its retry is another entry. */
export type AuditOutcome = "allowed" | "denied" | "approval_required" | "error" | "invalid" | "input_required";

export interface AuditEntry {
  id: number;
  at: number;
  tool: string;
  caller: string;
  /** The first 200 characters of the JSON arguments. */
  argsPreview: string;
  outcome: AuditOutcome;
  /** An AI turn's row (tool "model:<provider>:<model>"): its token usage and how many calls the gate refused. */
  turn?: TurnUsage;
}

export interface TurnUsage {
  inputTokens: number;
  outputTokens: number;
  denials: number;
}

export const ARGS_PREVIEW_CHARS = 200;

/** JSON of the arguments cut to 200 characters, never splitting a surrogate pair (SQLite would store U+FFFD). */
export function argsPreview(args: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(args) ?? "";
  } catch {
    json = "[unserialisable arguments]";
  }
  if (json.length <= ARGS_PREVIEW_CHARS) return json;
  const cut = json.slice(0, ARGS_PREVIEW_CHARS);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

interface Row {
  id: number;
  at: number;
  tool: string;
  caller: string;
  args_preview: string;
  outcome: AuditOutcome;
  input_tokens: number | null;
  output_tokens: number | null;
  denials: number | null;
}

/** The log keeps the newest entries only, so a busy motebit's storage stays bounded. */
export const AUDIT_MAX_ENTRIES = 100_000;
/** Trimming runs once per this many records, not on every call. */
const PRUNE_EVERY = 500;

/** One row as a caller records it; `args` is stored only as its 200-character preview. */
export interface AuditRecord {
  tool: string;
  caller: string;
  args: unknown;
  outcome: AuditOutcome;
  at: number;
  turn?: TurnUsage;
}

/** Where rows go: the log itself (each row written at once) or a task's batch. */
export interface AuditSink {
  record(e: AuditRecord): void;
}

export const AUDIT_SCHEMA: StoreSchema = {
  store: "audit_log",
  steps: [
    (sql) => {
      sql.run(
        `CREATE TABLE IF NOT EXISTS audit_log (
          id INTEGER PRIMARY KEY,
          at INTEGER NOT NULL,
          tool TEXT NOT NULL,
          caller TEXT NOT NULL,
          args_preview TEXT NOT NULL,
          outcome TEXT NOT NULL
        )`,
      );
      // Added with AI mode; older logs gain the columns (null for rows that are not AI turns).
      for (const col of ["input_tokens", "output_tokens", "denials"]) addColumnIfMissing(sql, "audit_log", col, "INTEGER");
    },
  ],
};

export class AuditLog implements AuditSink {
  private sinceTrim = 0;

  constructor(
    private readonly sql: SqlPort,
    private readonly maxEntries: number = AUDIT_MAX_ENTRIES,
  ) {}

  /** Idempotent. */
  migrate(): void {
    migrate(this.sql, AUDIT_SCHEMA);
  }

  /** Writes the row now, in its own statement. */
  record(e: AuditRecord): void {
    this.insert(e);
  }

  /**
   * A sink that holds a task's rows until `commit`, which writes them in one transaction together with the task's
   * other writes (its receipt): one commit per task instead of one per row, and the rows land with the receipt.
   */
  batch(): AuditBatch {
    const rows: AuditRecord[] = [];
    return {
      record: (e) => void rows.push(e),
      commit: (also) =>
        this.sql.transaction(() => {
          for (const e of rows.splice(0)) this.insert(e);
          also?.();
        }),
    };
  }

  private insert(e: AuditRecord): void {
    this.sql.run(
      "INSERT INTO audit_log (at, tool, caller, args_preview, outcome, input_tokens, output_tokens, denials) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
      e.at,
      e.tool,
      e.caller,
      argsPreview(e.args),
      e.outcome,
      e.turn?.inputTokens ?? null,
      e.turn?.outputTokens ?? null,
      e.turn?.denials ?? null,
    );
    if (++this.sinceTrim >= Math.min(PRUNE_EVERY, this.maxEntries)) {
      this.sinceTrim = 0;
      this.sql.run(
        "DELETE FROM audit_log WHERE id <= (SELECT id FROM audit_log ORDER BY id DESC LIMIT 1 OFFSET ?)",
        this.maxEntries,
      );
    }
  }

  /** Newest first. limit defaults to 100 and is capped at 1000. */
  list(opts: { limit?: number } = {}): AuditEntry[] {
    const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 100), 0), 1000);
    return this.sql
      .all<Row>(
        "SELECT id, at, tool, caller, args_preview, outcome, input_tokens, output_tokens, denials FROM audit_log ORDER BY at DESC, id DESC LIMIT ?",
        limit,
      )
      .map((r) => ({
        id: r.id,
        at: r.at,
        tool: r.tool,
        caller: r.caller,
        argsPreview: r.args_preview,
        outcome: r.outcome,
        ...(r.input_tokens !== null ? { turn: { inputTokens: r.input_tokens, outputTokens: r.output_tokens ?? 0, denials: r.denials ?? 0 } } : {}),
      }));
  }
}

export interface AuditBatch extends AuditSink {
  /** Writes the rows held so far, then `also`, in one transaction; the batch may be used again after. */
  commit(also?: () => void): void;
}
