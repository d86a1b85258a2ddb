// A connected server's tools as registry entries: `<server>__<tool>`, localOnly (they act for the owner), the
// risk the owner gave them (never guessed from the server's own hints), and a handler that calls the server.
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { Tool } from "@modelcontextprotocol/sdk/types.js";
import { type ContentBlock, riskName, type ServedTool, type ToolResult } from "motebit-edge/core";
import type { McpServerConfig } from "./config.js";

export const TOOL_SEPARATOR = "__";

export function servedTools(s: McpServerConfig, client: Client, tools: Tool[]): ServedTool[] {
  return tools.map((t) => ({
    definition: {
      name: `${s.name}${TOOL_SEPARATOR}${t.name}`,
      description: t.description?.trim() || t.title?.trim() || `${t.name} (from the MCP server "${s.name}")`,
      inputSchema: t.inputSchema as Record<string, unknown>,
      risk: riskName(s.toolRisk.get(t.name) ?? s.risk),
      localOnly: true,
    },
    // The run's trace context rides in _meta (SEP-414's unprefixed keys), so the server's spans join our trace.
    handler: async (args, { signal, trace }) =>
      toToolResult(await client.callTool({ name: t.name, arguments: args, ...(trace !== undefined && { _meta: { ...trace } }) }, undefined, { signal }), s.name, t.name),
  }));
}

/** The names in toolRisk that the server does not offer: most likely typos, so the owner hears about them. */
export function unknownOverrides(s: McpServerConfig, tools: Tool[]): string[] {
  const offered = new Set(tools.map((t) => t.name));
  return [...s.toolRisk.keys()].filter((n) => !offered.has(n));
}

/** The server's content goes on as it is; `data`/`error` carry its text for whoever reads text only. */
function toToolResult(r: Record<string, unknown>, server: string, tool: string): ToolResult {
  let content: ContentBlock[] = Array.isArray(r.content) ? (r.content as ContentBlock[]) : [];
  // An old-style result ({toolResult}) or one with structuredContent only still says something.
  if (content.length === 0 && r.structuredContent !== undefined) content = [{ type: "text", text: JSON.stringify(r.structuredContent) }];
  if (content.length === 0 && r.toolResult !== undefined) content = [{ type: "text", text: JSON.stringify(r.toolResult) }];
  const text = content.flatMap((b) => (b.type === "text" && typeof b.text === "string" ? [b.text] : [])).join("\n");
  if (r.isError === true) return { ok: false, error: text || `tool "${tool}" of the MCP server "${server}" failed without a message`, content };
  return { ok: true, data: text, content };
}
