// The way back to the client during one request: notifications (progress, logs, resource updates) and
// server→client requests (sampling, elicitation). Each host provides it over its transport: stdio writes to
// stdout; HTTP turns the POST's answer into an SSE stream the moment something is sent before the result.

export interface ClientChannel {
  /** Sends a notification; dropped when the transport cannot carry it (an HTTP client that accepts no SSE). */
  notify(method: string, params: Record<string, unknown>): void;
  /** Sends a request and resolves with the client's result; rejects with its error, on abort, or when it cannot be sent. */
  request(method: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

/** For callers with no way back (tests, in-process calls): notifications vanish, requests are refused. */
export const NO_CHANNEL: ClientChannel = {
  notify() {},
  request: async (method) => {
    throw new Error(`this connection cannot carry a server-to-client request (${method})`);
  },
};
