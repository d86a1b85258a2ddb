// Requests still running, so a notifications/cancelled can find and abort one. Keyed like PendingReplies
// (the connection or session the request came on, plus its id: nobody cancels another connection's requests). Bounded: past the
// cap the oldest entry is forgotten (its request runs on, it just can no longer be cancelled).
const MAX_IN_FLIGHT = 4096;

type Entry = { controller: AbortController; detach: () => void };

export class InFlight {
  private readonly running = new Map<string, Entry>();

  /** A controller for a new request, aborted too when `parent` aborts (host shutdown). */
  begin(key: string, parent?: AbortSignal): AbortController {
    const controller = new AbortController();
    const follow = () => controller.abort(parent!.reason);
    if (parent?.aborted) follow();
    else parent?.addEventListener("abort", follow, { once: true });
    if (this.running.size >= MAX_IN_FLIGHT) this.forget(this.running.keys().next().value!);
    this.forget(key);
    this.running.set(key, { controller, detach: () => parent?.removeEventListener("abort", follow) });
    return controller;
  }

  /** The request finished: it can no longer be cancelled, and the parent no longer holds it. */
  end(key: string, controller: AbortController): void {
    const e = this.running.get(key);
    if (e?.controller === controller) this.forget(key);
  }

  /** Aborts the request under `key`; false when none is running. */
  cancel(key: string, reason: string): boolean {
    const e = this.running.get(key);
    if (!e) return false;
    this.forget(key);
    e.controller.abort(new Error(reason));
    return true;
  }

  private forget(key: string): void {
    this.running.get(key)?.detach();
    this.running.delete(key);
  }
}
