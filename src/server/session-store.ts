// MCP sessions as rows: an evicted or restarted host loses none, and each is bound to the principal that
// opened it, so a session id alone is worth nothing to another caller.
import type { Clock, SqlPort } from "../ports.js";
import { randomHex } from "../protocol/index.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export interface SessionLimits {
  ttlMs: number;
  maxPerCaller: number;
}

export const SESSION_SCHEMA: StoreSchema = {
  store: "mcp_sessions",
  steps: [
    (sql) => {
      sql.run("CREATE TABLE IF NOT EXISTS mcp_sessions (id TEXT PRIMARY KEY, caller_id TEXT NOT NULL, created_at INTEGER NOT NULL, last_used_at INTEGER NOT NULL)");
      sql.run("CREATE INDEX IF NOT EXISTS mcp_sessions_caller ON mcp_sessions (caller_id, last_used_at)");
    },
  ],
};

export class SessionStore {
  constructor(
    private readonly sql: SqlPort,
    private readonly clock: Clock,
    private readonly limits: SessionLimits,
  ) {}

  migrate(): void {
    migrate(this.sql, SESSION_SCHEMA);
  }

  /**
   * Opens a session for `callerId` and returns its id (128 random bits, hex: visible ASCII).
   * Beyond the per-caller cap the caller's least recently used session is closed: a client that forgot
   * to DELETE re-initialises instead of being locked out, and one caller can only ever evict its own.
   */
  open(callerId: string): string {
    const now = this.clock.now();
    const id = randomHex(16);
    this.sql.transaction(() => {
      this.sql.run("DELETE FROM mcp_sessions WHERE last_used_at <= ?", now - this.limits.ttlMs);
      this.sql.run(
        `DELETE FROM mcp_sessions WHERE id IN (
           SELECT id FROM mcp_sessions WHERE caller_id = ? ORDER BY last_used_at DESC, created_at DESC LIMIT -1 OFFSET ?)`,
        callerId,
        Math.max(0, this.limits.maxPerCaller - 1),
      );
      this.sql.run("INSERT INTO mcp_sessions (id, caller_id, created_at, last_used_at) VALUES (?, ?, ?, ?)", id, callerId, now, now);
    });
    return id;
  }

  /** True when `id` is live and was opened by `callerId`; touches it (the idle TTL restarts). */
  use(id: string, callerId: string): boolean {
    const now = this.clock.now();
    const { changes } = this.sql.run(
      "UPDATE mcp_sessions SET last_used_at = ? WHERE id = ? AND caller_id = ? AND last_used_at > ?",
      now,
      id,
      callerId,
      now - this.limits.ttlMs,
    );
    return changes > 0;
  }

  /** Ends a live session of `callerId`; false when there was none to end. */
  /** When the session was opened, or null when there is no such session. */
  openedAt(id: string): number | null {
    return this.sql.all<{ created_at: number }>("SELECT created_at FROM mcp_sessions WHERE id = ?", id)[0]?.created_at ?? null;
  }

  close(id: string, callerId: string): boolean {
    const { changes } = this.sql.run(
      "DELETE FROM mcp_sessions WHERE id = ? AND caller_id = ? AND last_used_at > ?",
      id,
      callerId,
      this.clock.now() - this.limits.ttlMs,
    );
    return changes > 0;
  }
}
