// The jti replay set: every signed bearer token is good for one request. Rows are kept until the token
// would be refused as expired anyway (exp + skew), then pruned.
import type { Clock, SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

const PRUNE_EVERY_MS = 60_000;

export const REPLAY_SCHEMA: StoreSchema = {
  store: "jti_seen",
  steps: [
    (sql) => {
      sql.run("CREATE TABLE IF NOT EXISTS jti_seen (jti TEXT PRIMARY KEY, keep_until INTEGER NOT NULL)");
      sql.run("CREATE INDEX IF NOT EXISTS jti_seen_keep_until ON jti_seen (keep_until)");
    },
  ],
};

export class ReplayStore {
  private lastPrune = 0;

  constructor(
    private readonly sql: SqlPort,
    private readonly clock: Clock,
  ) {}

  migrate(): void {
    migrate(this.sql, REPLAY_SCHEMA);
  }

  /**
   * Records `jti`; true the first time, false on a replay. One statement, so check-and-insert is atomic
   * (a row already past keep_until counts as unseen and is renewed).
   */
  consume(jti: string, keepUntil: number): boolean {
    const now = this.clock.now();
    this.pruneOccasionally(now);
    const { changes } = this.sql.run(
      `INSERT INTO jti_seen (jti, keep_until) VALUES (?, ?)
       ON CONFLICT (jti) DO UPDATE SET keep_until = excluded.keep_until WHERE jti_seen.keep_until < ?`,
      jti,
      keepUntil,
      now,
    );
    return changes > 0;
  }

  private pruneOccasionally(now: number): void {
    if (now - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now;
    this.sql.run("DELETE FROM jti_seen WHERE keep_until < ?", now);
  }
}
