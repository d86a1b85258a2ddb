// One MCP tool call over Streamable HTTP, the way a peer makes it: the SDK client (initialize, then tools/call, in
// one session) over a fetch that carries our credentials (a fresh signed token per request: servers refuse a
// replayed jti). The fetch also turns what the SDK would report as a bare HTTP error into the CLI's one line: a
// refusal with what to pass, or the JSON-RPC error the server put in its error answer.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpError } from "@modelcontextprotocol/sdk/types.js";
import * as z from "zod/v4";
import { CliError } from "./cli-error.js";

type Fetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

/** The longest a timer may wait: the server bounds a task (its task timeout); the CLI sets no limit of its own. */
const NO_TIMEOUT_MS = 2 ** 31 - 1;

/** The tool's result as the server sent it, no field dropped or defaulted (the SDK's envelope check moves _meta first). */
const AS_SENT = z.looseObject({});

function oneLine(text: string): string {
  return text.slice(0, 200).replace(/\s+/g, " ");
}

/** The JSON-RPC method a POST body carries, to name it in an error. */
function methodOf(body: unknown): string {
  try {
    const method = (JSON.parse(String(body)) as { method?: unknown }).method;
    return typeof method === "string" ? method : "request";
  } catch {
    return "request";
  }
}

/** `fetch` with the CLI's errors: unreachable, refused (401/403), or an HTTP error answer, each as one CliError. */
function withCliErrors(url: URL, fetch: Fetch): Fetch {
  return async (input, init) => {
    let res: Response;
    try {
      res = await fetch(input, init);
    } catch (e) {
      if (init?.signal?.aborted) throw e;
      const cause = (e as { cause?: { code?: string; message?: string } }).cause;
      throw new CliError(`cannot reach ${url.href}: ${cause?.code ?? cause?.message ?? (e as Error).message}`);
    }
    if (init?.method !== "POST" || res.ok) return res;
    const method = methodOf(init.body);
    const text = await res.text();
    if (res.status === 401 || res.status === 403) {
      throw new CliError(`${method}: HTTP ${res.status} ${oneLine(text)} (pass --key with a key the server knows, or --token with its auth token)`);
    }
    const error = jsonRpcError(text);
    if (error !== null) throw new CliError(`${method}: ${error.message} (JSON-RPC ${error.code})`);
    throw new CliError(`the server answered HTTP ${res.status} without a JSON-RPC answer: ${oneLine(text)}`);
  };
}

function jsonRpcError(text: string): { code: number; message: string } | null {
  try {
    const error = (JSON.parse(text) as { error?: { code?: unknown; message?: unknown } }).error;
    return typeof error?.code === "number" && typeof error.message === "string" ? { code: error.code, message: error.message } : null;
  } catch {
    return null;
  }
}

/** An error answer to `method`, as the SDK reports it (McpError's message is "MCP error <code>: <message>"). */
function rpcFailure(method: string, e: unknown): unknown {
  if (!(e instanceof McpError)) return e;
  return new CliError(`${method}: ${e.message.replace(/^MCP error -?\d+: /, "")} (JSON-RPC ${e.code})`);
}

export async function callTool(o: { url: URL; fetch: Fetch; tool: string; args: Record<string, unknown> }): Promise<Record<string, unknown>> {
  const client = new Client({ name: "motebit-local call", version: "1" }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(o.url, { fetch: withCliErrors(o.url, o.fetch) });
  try {
    await client.connect(transport).catch((e: unknown) => {
      throw rpcFailure("initialize", e);
    });
    return await client.request({ method: "tools/call", params: { name: o.tool, arguments: o.args } }, AS_SENT, { timeout: NO_TIMEOUT_MS }).catch((e: unknown) => {
      throw rpcFailure("tools/call", e);
    });
  } finally {
    await client.close();
  }
}
