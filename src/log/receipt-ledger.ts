// Every receipt this motebit signed, kept so the owner (and a retrying relay) can look it up later.

import type { SqlPort } from "../ports.js";
import type { ExecutionReceipt } from "../protocol/index.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";
import { LogStore, receiptProof, type ReceiptProof } from "./log-store.js";
import { signedReceiptLeafHash } from "./receipt-leaf.js";

export interface StoredReceipt {
  receipt: ExecutionReceipt;
  /** principalLabel() of whoever asked for the task. */
  caller: string;
  /** The receipt's completed_at, in epoch ms. */
  createdAt: number;
}

interface Row {
  caller: string;
  created_at: number;
  json: string;
}

const MAX_PAGE = 500;

function fromRow(r: Row): StoredReceipt {
  return { receipt: JSON.parse(r.json) as ExecutionReceipt, caller: r.caller, createdAt: r.created_at };
}

export const RECEIPT_SCHEMA: StoreSchema = {
  store: "receipts",
  steps: [
    (sql) => {
      sql.run(
        `CREATE TABLE IF NOT EXISTS receipts (
          task_id TEXT PRIMARY KEY,
          relay_task_id TEXT,
          caller TEXT NOT NULL,
          status TEXT NOT NULL,
          created_at INTEGER NOT NULL,
          json TEXT NOT NULL
        )`,
      );
      sql.run("CREATE INDEX IF NOT EXISTS receipts_by_time ON receipts (created_at)");
      sql.run("CREATE INDEX IF NOT EXISTS receipts_by_relay_task ON receipts (relay_task_id)");
    },
    // 2: the MCP task a receipt ends, at most one receipt per task (issue 30).
    (sql) => {
      sql.run("ALTER TABLE receipts ADD COLUMN run_id TEXT");
      sql.run("CREATE UNIQUE INDEX receipts_by_run ON receipts (run_id) WHERE run_id IS NOT NULL");
    },
  ],
};

export class ReceiptLedger {
  /** The transparency log every stored receipt is a leaf of (src/log/). */
  readonly log: LogStore;
  /** Proofs of the receipts this process appended, by the receipt object (the task hands the same one back). */
  private readonly appended = new WeakMap<ExecutionReceipt, ReceiptProof>();

  constructor(private readonly sql: SqlPort) {
    this.log = new LogStore(sql);
  }

  /** Idempotent. The log after the receipts: its first step enters the receipts already stored. */
  migrate(): void {
    migrate(this.sql, RECEIPT_SCHEMA);
    this.log.migrate();
  }

  /**
   * Stores the receipt exactly as signed and appends it to the log, in one transaction: no receipt outside the log,
   * no leaf without its receipt. A second receipt with the same task_id, or for the same MCP task (`runId`), throws.
   * Returns the receipt's leaf index.
   */
  append(receipt: ExecutionReceipt, caller: string, runId?: string): number {
    const proof = this.sql.transaction(() => {
      this.insert(receipt, caller, runId);
      return this.log.append(receipt.task_id, signedReceiptLeafHash(receipt));
    });
    this.appended.set(receipt, proof);
    return proof.leaf_index;
  }

  /** The receipt's inclusion proof for motebit_task's `_meta` (docs/protocol.md §10), or null when it is not in the log. */
  proofFor(receipt: ExecutionReceipt): ReceiptProof | null {
    return this.appended.get(receipt) ?? receiptProof(this.log, receipt);
  }

  private insert(receipt: ExecutionReceipt, caller: string, runId: string | undefined): void {
    this.sql.run(
      "INSERT INTO receipts (task_id, relay_task_id, caller, status, created_at, json, run_id) VALUES (?, ?, ?, ?, ?, ?, ?)",
      receipt.task_id,
      receipt.relay_task_id ?? null,
      caller,
      receipt.status,
      receipt.completed_at,
      JSON.stringify(receipt),
      runId ?? null,
    );
  }

  /** The receipt that ended the MCP task `runId`, if it has one. */
  forRun(runId: string): StoredReceipt | undefined {
    const [row] = this.sql.all<Row>("SELECT caller, created_at, json FROM receipts WHERE run_id = ?", runId);
    return row ? fromRow(row) : undefined;
  }

  /** Newest first. limit defaults to 50 and is capped at 500. */
  list(opts: { limit?: number; offset?: number } = {}): StoredReceipt[] {
    const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 50), 0), MAX_PAGE);
    const offset = Math.max(Math.trunc(opts.offset ?? 0), 0);
    return this.sql
      .all<Row>("SELECT caller, created_at, json FROM receipts ORDER BY created_at DESC, rowid DESC LIMIT ? OFFSET ?", limit, offset)
      .map(fromRow);
  }

  count(): number {
    return this.sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM receipts")[0].n;
  }

  get(taskId: string): StoredReceipt | undefined {
    const [row] = this.sql.all<Row>("SELECT caller, created_at, json FROM receipts WHERE task_id = ?", taskId);
    return row ? fromRow(row) : undefined;
  }

  /** The receipt already issued to this caller for a relay task, so a retry returns it instead of running twice. */
  findRelayTask(relayTaskId: string, caller: string): StoredReceipt | undefined {
    const [row] = this.sql.all<Row>(
      "SELECT caller, created_at, json FROM receipts WHERE relay_task_id = ? AND caller = ? ORDER BY created_at DESC LIMIT 1",
      relayTaskId,
      caller,
    );
    return row ? fromRow(row) : undefined;
  }
}
