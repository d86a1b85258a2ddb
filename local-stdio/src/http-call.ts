// One MCP tool call over Streamable HTTP, the way a peer makes it: initialize, notifications/initialized, tools/call
// in one session, each request with its own credentials (a fresh signed token per request: servers refuse a
// replayed jti). Answers may come as JSON or as an SSE stream; the one that carries our id is the answer.
import { LATEST_PROTOCOL_VERSION } from "motebit-edge/core";
import { CliError } from "./cli-error.js";

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

interface RpcAnswer {
  result?: Record<string, unknown>;
  error?: { code: number; message: string };
}

/** The JSON-RPC message answering `id` in a response body, JSON or text/event-stream. */
async function answerFor(res: Response, id: number): Promise<RpcAnswer> {
  const text = await res.text();
  const messages = (res.headers.get("content-type") ?? "").includes("text/event-stream")
    ? text.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim())
    : [text];
  for (const m of messages) {
    try {
      const parsed = JSON.parse(m) as RpcAnswer & { id?: unknown };
      if (parsed.id === id) return parsed;
    } catch {
      /* not JSON: an event of another kind */
    }
  }
  throw new CliError(`the server answered HTTP ${res.status} without a JSON-RPC answer: ${text.slice(0, 200).replace(/\s+/g, " ")}`);
}

export async function callTool(o: { url: URL; fetch: Fetch; tool: string; args: Record<string, unknown> }): Promise<Record<string, unknown>> {
  let session: string | null = null;
  let protocol: string | null = null;
  let nextId = 1;
  const post = async (message: Record<string, unknown>): Promise<Response> => {
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json, text/event-stream" };
    if (session !== null) headers["mcp-session-id"] = session;
    if (protocol !== null) headers["mcp-protocol-version"] = protocol;
    try {
      return await o.fetch(o.url, { method: "POST", headers, body: JSON.stringify(message) });
    } catch (e) {
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${o.url.href}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
  };
  const request = async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = nextId++;
    const res = await post({ jsonrpc: "2.0", id, method, params });
    if (res.status === 401 || res.status === 403) {
      throw new CliError(`${method}: HTTP ${res.status} ${(await res.text()).slice(0, 200).replace(/\s+/g, " ")} (pass --key with a key the server knows, or --token with its auth token)`);
    }
    const answer = await answerFor(res, id);
    if (answer.error) throw new CliError(`${method}: ${answer.error.message} (JSON-RPC ${answer.error.code})`);
    session ??= res.headers.get("mcp-session-id");
    return answer.result ?? {};
  };
  const init = await request("initialize", { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: "motebit-local call", version: "1" } });
  protocol = typeof init.protocolVersion === "string" ? init.protocolVersion : null;
  await post({ jsonrpc: "2.0", method: "notifications/initialized" });
  return request("tools/call", { name: o.tool, arguments: o.args });
}
