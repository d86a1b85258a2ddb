// What a served tool is: the shape a `--tools` module's default export holds, one entry per tool.

export interface ToolDefinition {
  /** MCP tool name; `motebit_` is reserved for the synthetic tools. */
  name: string;
  description: string;
  /** JSON Schema for the arguments, served to clients exactly as given. */
  inputSchema: Record<string, unknown>;
  /** "R0_READ" … "R4_MONEY" or 0–4. Missing or unknown → the gate denies every call. */
  risk?: unknown;
  /** Acts for the owner: never listed or callable over HTTP. */
  localOnly?: boolean;
}

export type ToolResult = { ok: true; data: unknown } | { ok: false; error: string };

export interface ToolContext {
  /** Aborted on timeout or cancellation; well-behaved tools stop their work when it fires. */
  signal: AbortSignal;
}

export interface ServedTool {
  definition: ToolDefinition;
  handler(args: Record<string, unknown>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}
