// Requests still running, so a notifications/cancelled can find and abort one. Keyed like PendingReplies
// (stdio: the id; HTTP: session + id: a caller can only cancel its own session's requests). Bounded: past the
// cap the oldest entry is forgotten (its request runs on, it just can no longer be cancelled).
const MAX_IN_FLIGHT = 4096;

export class InFlight {
  private readonly running = new Map<string, AbortController>();

  /** A controller for a new request, aborted too when `parent` aborts (host shutdown). */
  begin(key: string, parent?: AbortSignal): AbortController {
    const c = new AbortController();
    if (parent?.aborted) c.abort(parent.reason);
    else parent?.addEventListener("abort", () => c.abort(parent.reason), { once: true, signal: c.signal });
    if (this.running.size >= MAX_IN_FLIGHT) this.running.delete(this.running.keys().next().value!);
    this.running.set(key, c);
    return c;
  }

  end(key: string, c: AbortController): void {
    if (this.running.get(key) === c) this.running.delete(key);
    // Frees the parent listener.
    if (!c.signal.aborted) c.abort(new Error("request finished"));
  }

  /** Aborts the request under `key`; false when none is running. */
  cancel(key: string, reason: string): boolean {
    const c = this.running.get(key);
    if (!c) return false;
    this.running.delete(key);
    c.abort(new Error(reason));
    return true;
  }
}
