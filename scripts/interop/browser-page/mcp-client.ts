// The page's MCP client, bundled for the browser by scripts/interop/browser-client-chromium.ts: the MCP SDK v2 client
// (@modelcontextprotocol/client) over Streamable HTTP, as a web app would ship it. The script calls window.mcpRun.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";

export interface RunResult {
  ok: boolean;
  /** The revision the client ended up speaking. */
  version?: string;
  tools?: string[];
  /** The tool result's first text block. */
  text?: string;
  isError?: boolean;
  error?: string;
}

async function run(mcpUrl: string, token: string, revision: "2026-07-28" | "legacy", tool: string, args: Record<string, unknown>): Promise<RunResult> {
  const client = new Client(
    { name: "motebit-browser-check", version: "1.0.0" },
    revision === "legacy" ? {} : { versionNegotiation: { mode: { pin: revision } } },
  );
  const transport = new StreamableHTTPClientTransport(new URL(mcpUrl), { requestInit: { headers: { Authorization: `Bearer ${token}` } } });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((t) => t.name);
    const result = (await client.callTool({ name: tool, arguments: args })) as { content?: { type: string; text?: string }[]; isError?: boolean };
    return { ok: true, version: client.getNegotiatedProtocolVersion(), tools, text: result.content?.[0]?.text, isError: result.isError === true };
  } catch (e) {
    return { ok: false, error: String((e as Error)?.message ?? e) };
  } finally {
    await client.close().catch(() => {});
  }
}

(globalThis as unknown as { mcpRun: typeof run }).mcpRun = run;
