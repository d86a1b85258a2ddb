// Server→client requests waiting for their answer, keyed by whatever the host routes answers by (stdio: the
// id; HTTP: session + id, so one session can never answer another's). Bounded, and each wait ends on abort
// or after a deadline, so a client that never answers holds nothing forever.
import type { JsonRpcId } from "./jsonrpc.js";

const MAX_PENDING = 1024;
export const REPLY_TIMEOUT_MS = 5 * 60_000;

type Waiter = { resolve: (result: unknown) => void; reject: (e: Error) => void };

export class PendingReplies {
  private readonly waiting = new Map<string, Waiter>();
  private next = 0;

  /** A fresh id for an outgoing request (strings, so they never collide with a client's numeric ids). */
  newId(): string {
    return `motebit-${++this.next}`;
  }

  wait(key: string, signal: AbortSignal, timeoutMs = REPLY_TIMEOUT_MS): Promise<unknown> {
    if (this.waiting.size >= MAX_PENDING) return Promise.reject(new Error("too many server-to-client requests waiting"));
    if (signal.aborted) return Promise.reject(new Error("request cancelled"));
    return new Promise((resolve, reject) => {
      const done = () => {
        this.waiting.delete(key);
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

  /** Routes a client's response; false when nothing waits for it (late, unknown, or another session's). */
  settle(key: string, message: { result?: unknown; error?: { message?: unknown } }): boolean {
    const w = this.waiting.get(key);
    if (!w) return false;
    if ("error" in message && message.error) w.reject(new Error(String(message.error.message ?? "the client refused the request")));
    else w.resolve(message.result);
    return true;
  }
}

export function replyKey(scope: string, id: JsonRpcId | null | undefined): string {
  return `${scope}\u0000${typeof id}:${String(id)}`;
}
