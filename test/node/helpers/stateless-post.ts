// One 2026-07-28 request over real HTTP, as a conforming client sends it: the `_meta` envelope, and the version,
// method and name repeated in headers; `headers` adds to those (Mcp-Param-*, or a wrong one on purpose).
import keys from "../../fixtures/edge/keys.json";

export const STATELESS_VERSION = "2026-07-28";

export type StatelessAnswer = { status: number; body: { result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } } };

export async function postStateless(
  url: string,
  method: string,
  params: Record<string, unknown>,
  o: { headers?: Record<string, string>; caps?: Record<string, unknown> } = {},
): Promise<StatelessAnswer> {
  // Mcp-Name names the tool or prompt, and for tasks/* the task.
  const name = method === "tools/call" || method === "prompts/get" ? params.name : method.startsWith("tasks/") ? params.taskId : undefined;
  const meta = { "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION, "io.modelcontextprotocol/clientCapabilities": o.caps ?? {} };
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${keys.auth_token}`,
      "Content-Type": "application/json",
      Accept: "application/json",
      "MCP-Protocol-Version": STATELESS_VERSION,
      "Mcp-Method": method,
      ...(typeof name === "string" && { "Mcp-Name": name }),
      ...o.headers,
    },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: meta } }),
  });
  return { status: res.status, body: (await res.json()) as StatelessAnswer["body"] };
}
