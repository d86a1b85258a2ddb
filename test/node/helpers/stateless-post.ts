// One 2026-07-28 request over real HTTP, as a conforming client sends it (test/shared/stateless-request.ts);
// `headers` adds to those (Mcp-Param-*, or a wrong one on purpose), `auth` replaces the static token.
import keys from "../../fixtures/edge/keys.json";
import { statelessBody, statelessHeaders } from "../../shared/stateless-request.js";

export { STATELESS_VERSION, TASKS } from "../../shared/stateless-request.js";

export type StatelessAnswer = { status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };

export async function postStateless(
  url: string,
  method: string,
  params: Record<string, unknown>,
  o: { headers?: Record<string, string>; caps?: Record<string, unknown>; auth?: string; id?: number } = {},
): Promise<StatelessAnswer> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      Authorization: o.auth ?? `Bearer ${keys.auth_token}`,
      "Content-Type": "application/json",
      Accept: "application/json",
      ...statelessHeaders(method, params),
      ...o.headers,
    },
    body: JSON.stringify(statelessBody(method, params, o)),
  });
  return { status: res.status, body: (await res.json()) as StatelessAnswer["body"] };
}
