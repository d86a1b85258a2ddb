// Waiting work (server-to-client requests, running tasks) counted per caller under a host-wide ceiling. Each
// caller's share is below the ceiling, so one caller at its limit still leaves room for every other one.

export class CallerQuota {
  private readonly held = new Map<string, number>();
  private total = 0;

  constructor(
    /** What one caller may hold at once. */
    readonly perCaller: number,
    /** What all callers together may hold; larger than perCaller, or one caller could reach it alone. */
    readonly ceiling: number,
    /** Names what is counted in the refusal ("server-to-client requests waiting"). */
    private readonly what: string,
  ) {
    if (!(perCaller > 0 && perCaller < ceiling)) throw new Error(`CallerQuota: perCaller (${perCaller}) must be positive and below the ceiling (${ceiling})`);
  }

  /** Takes one slot for `caller`: null when taken, else the refusal to give (caller or host at its limit). */
  take(caller: string): string | null {
    const mine = this.held.get(caller) ?? 0;
    if (mine >= this.perCaller) return `too many ${this.what} for this caller (limit ${this.perCaller})`;
    if (this.total >= this.ceiling) return `too many ${this.what} on this host (limit ${this.ceiling})`;
    this.held.set(caller, mine + 1);
    this.total++;
    return null;
  }

  /** Gives back one slot taken by `caller`. */
  give(caller: string): void {
    const mine = this.held.get(caller) ?? 0;
    if (mine === 0) return;
    if (mine === 1) this.held.delete(caller);
    else this.held.set(caller, mine - 1);
    this.total--;
  }

  heldBy(caller: string): number {
    return this.held.get(caller) ?? 0;
  }
}
