// Server→client requests waiting for their answer, keyed by whatever the host routes answers by (the connection
// or session the request went out on, plus its id, so one connection can never answer another's). Counted per
// caller under a host-wide ceiling, and each wait ends on abort (the call ended, or its connection dropped) or
// after a deadline, so a client that never answers holds nothing forever.
import { CallerQuota } from "./caller-quota.js";
import { WAITS_CEILING, WAITS_PER_CALLER } from "./limits.js";

export const REPLY_TIMEOUT_MS = 5 * 60_000;

type Waiter = { resolve: (result: unknown) => void; reject: (e: Error) => void };

export class PendingReplies {
  private readonly waiting = new Map<string, Waiter>();
  private next = 0;

  constructor(private readonly quota = new CallerQuota(WAITS_PER_CALLER, WAITS_CEILING, "server-to-client requests waiting")) {}

  /** A fresh id for an outgoing request (strings, so they never collide with a client's numeric ids). */
  newId(): string {
    return `motebit-${++this.next}`;
  }

  /** Waits for the answer to the request under `key`, counted against `caller`. */
  wait(key: string, caller: string, signal: AbortSignal, timeoutMs = REPLY_TIMEOUT_MS): Promise<unknown> {
    if (signal.aborted) return Promise.reject(new Error("request cancelled"));
    if (this.waiting.has(key)) return Promise.reject(new Error("a request with this id is already waiting"));
    const refused = this.quota.take(caller);
    if (refused !== null) return Promise.reject(new Error(refused));
    return new Promise((resolve, reject) => {
      const done = () => {
        this.waiting.delete(key);
        this.quota.give(caller);
        clearTimeout(timer);
        signal.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        done();
        reject(new Error("request cancelled"));
      };
      const timer = setTimeout(() => {
        done();
        reject(new Error(`the client did not answer within ${Math.round(timeoutMs / 1000)} s`));
      }, timeoutMs);
      signal.addEventListener("abort", onAbort, { once: true });
      this.waiting.set(key, {
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
    });
  }

  /** Routes a client's response; false when nothing waits for it (late, unknown, or another connection's). */
  settle(key: string, message: { result?: unknown; error?: { message?: unknown } }): boolean {
    const w = this.waiting.get(key);
    if (!w) return false;
    if ("error" in message && message.error) {
      const text = message.error.message;
      w.reject(new Error(typeof text === "string" ? text : "the client refused the request"));
    } else w.resolve(message.result);
    return true;
  }

  isWaiting(key: string): boolean {
    return this.waiting.has(key);
  }

  /** How many requests `caller` has waiting (for tests and evidence). */
  heldBy(caller: string): number {
    return this.quota.heldBy(caller);
  }
}

/** Only a string or a finite number is an id; anything else (null, an object) gets a key nothing waits under. */
export function replyKey(scope: string, id: unknown): string {
  const usable = typeof id === "string" || (typeof id === "number" && Number.isFinite(id));
  return usable ? `${scope}\u0000${typeof id}:${String(id)}` : `${scope}\u0000none`;
}
