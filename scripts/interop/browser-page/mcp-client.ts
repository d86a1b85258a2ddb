// The page's MCP clients, bundled for the browser by scripts/interop/browser-client-chromium.ts, as a web app would
// ship them: the AI SDK's MCP client (@ai-sdk/mcp, which probes server/discover and speaks 2026-07-28) and the MCP
// SDK v2 client (@modelcontextprotocol/client), over Streamable HTTP. The script calls window.mcpRun.
import { createMCPClient } from "@ai-sdk/mcp";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export type ClientKind = "ai-sdk" | "mcp-sdk-2026" | "mcp-sdk-legacy";

export interface RunResult {
  ok: boolean;
  tools?: string[];
  /** The tool result's first text block. */
  text?: string;
  isError?: boolean;
  error?: string;
}

type Called = { content?: { type: string; text?: string }[]; isError?: boolean };

async function aiSdk(mcpUrl: string, token: string, tool: string, args: Record<string, unknown>): Promise<{ tools: string[]; result: Called }> {
  const client = await createMCPClient({ transport: { type: "http", url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } });
  try {
    // Listing first: the client learns which arguments the tool mirrors in Mcp-Param-* headers from it.
    const tools = (await client.listTools()).tools.map((t) => t.name);
    return { tools, result: (await client.callTool({ name: tool, arguments: args })) as Called };
  } finally {
    await client.close();
  }
}

async function mcpSdk(mcpUrl: string, token: string, modern: boolean, tool: string, args: Record<string, unknown>): Promise<{ tools: string[]; result: Called }> {
  const client = new Client({ name: "motebit-browser-check", version: "1.0.0" }, modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {});
  await client.connect(new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
  try {
    const tools = (await client.listTools()).tools.map((t) => t.name);
    return { tools, result: (await client.callTool({ name: tool, arguments: args })) as Called };
  } finally {
    await client.close();
  }
}

async function run(kind: ClientKind, mcpUrl: string, token: string, tool: string, args: Record<string, unknown>): Promise<RunResult> {
  try {
    const { tools, result } = kind === "ai-sdk" ? await aiSdk(mcpUrl, token, tool, args) : await mcpSdk(mcpUrl, token, kind === "mcp-sdk-2026", tool, args);
    return { ok: true, tools, text: result.content?.[0]?.text, isError: result.isError === true };
  } catch (e) {
    return { ok: false, error: String((e as Error)?.message ?? e) };
  }
}

(globalThis as unknown as { mcpRun: typeof run }).mcpRun = run;
