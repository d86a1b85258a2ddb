// The fleet directory's role in its Durable Object (one object, reached by a fixed name: worker/fleet-objects.ts):
// the list of names, claimed before a motebit is provisioned and completed after (src/fleet/directory.ts).
import {
  completeEntry, type EnvLike, type FleetEntry, type FleetPage, getEntry, listEntries, operatorAttempt, RateLimiter,
  type RateDecision, readSetting, removeEntry, reserveName, type SqlPort, systemClock,
} from "../src/index.js";

export class FleetDirectory {
  /** The bucket of failed operator tokens, made on first use. */
  private operatorLimiter: RateLimiter | null = null;

  constructor(
    private readonly sql: SqlPort,
    private readonly env: EnvLike,
  ) {}

  /** Failed operator tokens per source, in the directory's SQL (src/fleet/operator-attempts.ts). */
  operatorAttempt(source: string, tokenOk: boolean): RateDecision {
    if (this.operatorLimiter === null) {
      this.operatorLimiter = new RateLimiter(this.sql, systemClock, readSetting("rateLimit", { env: this.env }));
      this.operatorLimiter.migrate();
    }
    return operatorAttempt(this.operatorLimiter, source, tokenOk);
  }

  reserve(name: string, displayName: string | null): boolean {
    return reserveName(this.sql, name, displayName, Date.now());
  }

  complete(name: string, ids: { motebitId: string; publicKeyHex: string }): void {
    completeEntry(this.sql, name, ids);
  }

  remove(name: string): boolean {
    return removeEntry(this.sql, name);
  }

  get(name: string): FleetEntry | null {
    return getEntry(this.sql, name);
  }

  list(o: { after: string | null; limit: number }): FleetPage {
    return listEntries(this.sql, o);
  }
}
