// One 2026-07-28 request as a conforming client writes it, for both runtimes' tests: the `_meta` envelope in the body,
// and the version, method and name repeated in headers. Node tests post it over a socket (node/helpers/stateless-post),
// workerd tests hand it to SELF or a Durable Object.
export const STATELESS_VERSION = "2026-07-28";

/** The client capabilities that negotiate the tasks extension. */
export const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

/** The envelope a 2026-07-28 request carries in `params._meta`. */
export const statelessMeta = (caps: Record<string, unknown> = {}) => ({
  "io.modelcontextprotocol/protocolVersion": STATELESS_VERSION,
  "io.modelcontextprotocol/clientCapabilities": caps,
});

/** The JSON-RPC message: `params` with the envelope added to its `_meta` (`id` null: a notification). */
export function statelessBody(method: string, params: Record<string, unknown>, o: { id?: number | string | null; caps?: Record<string, unknown> } = {}) {
  const id = o.id === undefined ? 1 : o.id;
  return { jsonrpc: "2.0" as const, ...(id !== null && { id }), method, params: { ...params, _meta: { ...(params._meta as object | undefined), ...statelessMeta(o.caps) } } };
}

/** MCP-Protocol-Version, Mcp-Method, and Mcp-Name: the tool or prompt, the resource's URI, or for tasks/* the task. */
export function statelessHeaders(method: string, params: Record<string, unknown>): Record<string, string> {
  const name =
    method === "tools/call" || method === "prompts/get" ? params.name : method === "resources/read" ? params.uri : method.startsWith("tasks/") ? params.taskId : undefined;
  return { "MCP-Protocol-Version": STATELESS_VERSION, "Mcp-Method": method, ...(typeof name === "string" && { "Mcp-Name": name }) };
}
