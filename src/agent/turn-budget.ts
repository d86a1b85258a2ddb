// One wall-clock budget per AI turn: a timer and the caller's cancellation folded into one signal that every
// model call and tool call in the turn listens to, and the words a receipt uses for whichever ended it.

/** A cancellation by the host itself (its motebit was retired): the receipt says why, not only "cancelled". */
export class HostStop extends Error {}

export interface TurnBudget {
  signal: AbortSignal;
  /** The error text for a turn that threw: timeout, cancellation, or the error itself. */
  errorText(e: unknown): string;
  end(): void;
}

export function startBudget(timeoutMs: number, cancel?: AbortSignal): TurnBudget {
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`task timed out after ${timeoutMs}ms`, "TimeoutError"));
  }, timeoutMs);
  const onCancel = () => controller.abort(cancel?.reason);
  if (cancel?.aborted) onCancel();
  else cancel?.addEventListener("abort", onCancel, { once: true });
  return {
    signal: controller.signal,
    errorText(e) {
      if (timedOut) return `Error: task timed out after ${timeoutMs}ms`;
      if (cancel?.aborted) return cancel.reason instanceof HostStop ? `Error: task cancelled: ${cancel.reason.message}` : "Error: task cancelled";
      return `Error: ${e instanceof Error ? e.message : String(e)}`;
    },
    end() {
      clearTimeout(timer);
      cancel?.removeEventListener("abort", onCancel);
    },
  };
}
