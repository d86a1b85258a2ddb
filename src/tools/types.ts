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

/** One MCP content block (text, image, audio, resource link, embedded resource…), passed on as it is. */
export type ContentBlock = { type: string } & Record<string, unknown>;

/**
 * `data` (or `error`) is the result as text for whoever reads text (a task receipt, a model's turn). A tool
 * that already speaks MCP (a connected server's) also gives `content`, which callers over MCP get instead.
 */
export type ToolResult = { ok: true; data: unknown; content?: ContentBlock[] } | { ok: false; error: string; content?: ContentBlock[] };

export interface ToolContext {
  /** Aborted on timeout or cancellation; well-behaved tools stop their work when it fires. */
  signal: AbortSignal;
}

export interface ServedTool {
  definition: ToolDefinition;
  handler(args: Record<string, unknown>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}
