// One 2026-07-28 request over real HTTP, as a conforming client sends it (test/shared/stateless-request.ts);
// `headers` adds to those (Mcp-Param-*, or a wrong one on purpose), `auth` replaces the static token.
import keys from "../../fixtures/edge/keys.json";
import { statelessBody, statelessHeaders } from "../../shared/stateless-request.js";

export { STATELESS_VERSION, TASKS } from "../../shared/stateless-request.js";

export type StatelessAnswer = { status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };

export interface StatelessOptions {
  headers?: Record<string, string>;
  caps?: Record<string, unknown>;
  auth?: string;
  /** The JSON-RPC id (default 1); null sends a notification. */
  id?: number | null;
  accept?: string;
  signal?: AbortSignal;
}

/** The request's Response, unread (for its headers, a stream, or a connection the test drops). */
export function fetchStateless(url: string, method: string, params: Record<string, unknown>, o: StatelessOptions = {}): Promise<Response> {
  return fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      Authorization: o.auth ?? `Bearer ${keys.auth_token}`,
      "Content-Type": "application/json",
      Accept: o.accept ?? "application/json",
      ...statelessHeaders(method, params),
      ...o.headers,
    },
    body: JSON.stringify(statelessBody(method, params, o)),
    signal: o.signal,
  });
}

/** The request's status and its JSON-RPC answer. */
export async function postStateless(url: string, method: string, params: Record<string, unknown>, o: StatelessOptions = {}): Promise<StatelessAnswer> {
  const res = await fetchStateless(url, method, params, o);
  return { status: res.status, body: (await res.json()) as StatelessAnswer["body"] };
}
