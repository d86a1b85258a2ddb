// Per-caller token bucket over SQL rows: capacity = the per-minute rate (the burst), refilled continuously.
import type { Clock, SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export type RateDecision = { ok: true } | { ok: false; retryAfterSeconds: number };

const WINDOW_MS = 60_000;

export const RATE_LIMIT_SCHEMA: StoreSchema = {
  store: "rate_buckets",
  steps: [(sql) => void sql.run("CREATE TABLE IF NOT EXISTS rate_buckets (caller_id TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL)")],
};

export class RateLimiter {
  private lastPrune = 0;

  /** `perMinute` is a whole number (the setting allows 0–1,000,000); 0 turns limiting off. */
  constructor(
    private readonly sql: SqlPort,
    private readonly clock: Clock,
    private readonly perMinute: number,
  ) {}

  migrate(): void {
    migrate(this.sql, RATE_LIMIT_SCHEMA);
  }

  /**
   * Takes one token from `callerId`'s bucket, or says how many whole seconds until one is there. One statement
   * takes the token when the refilled bucket holds one; a refusal writes nothing (the refill is computed from
   * updated_at, so leaving the row as it is loses nothing) and reads the bucket only to say when to retry. The
   * caller's transaction (admission) commits it with the jti and the session touch.
   */
  take(callerId: string): RateDecision {
    if (this.perMinute === 0) return { ok: true };
    const now = this.clock.now();
    const capacity = this.perMinute;
    const perMs = capacity / WINDOW_MS;
    this.pruneOccasionally(now);
    const { changes } = this.sql.run(
      `INSERT INTO rate_buckets (caller_id, tokens, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (caller_id) DO UPDATE SET tokens = MIN(?, tokens + MAX(0, ? - updated_at) * ?) - 1, updated_at = excluded.updated_at
       WHERE MIN(?, tokens + MAX(0, ? - updated_at) * ?) >= 1`,
      callerId,
      capacity - 1,
      now,
      capacity,
      now,
      perMs,
      capacity,
      now,
      perMs,
    );
    if (changes > 0) return { ok: true };
    const wait = this.secondsUntilToken(callerId, now);
    return { ok: false, retryAfterSeconds: wait ?? 1 };
  }

  /** Whether `callerId`'s bucket holds a token now, taking none and writing nothing. */
  peek(callerId: string): RateDecision {
    if (this.perMinute === 0) return { ok: true };
    const wait = this.secondsUntilToken(callerId, this.clock.now());
    return wait === null ? { ok: true } : { ok: false, retryAfterSeconds: wait };
  }

  /** Whole seconds until the bucket holds a token at `now`, or null when it holds one (or has no row: full). */
  private secondsUntilToken(callerId: string, now: number): number | null {
    const row = this.sql.all<{ tokens: number; updated_at: number }>("SELECT tokens, updated_at FROM rate_buckets WHERE caller_id = ?", callerId)[0];
    if (row === undefined) return null;
    const perMs = this.perMinute / WINDOW_MS;
    const available = Math.min(this.perMinute, row.tokens + Math.max(0, now - row.updated_at) * perMs);
    return available >= 1 ? null : Math.max(1, Math.ceil((1 - available) / perMs / 1000));
  }

  /** A bucket untouched for a whole window is full again, so its row carries nothing: drop it. */
  private pruneOccasionally(now: number): void {
    if (now - this.lastPrune < WINDOW_MS) return;
    this.lastPrune = now;
    this.sql.run("DELETE FROM rate_buckets WHERE updated_at < ?", now - WINDOW_MS);
  }
}
