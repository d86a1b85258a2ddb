// What a served tool is: the shape a `--tools` module's default export holds, one entry per tool. The module
// may also export `resources` and `prompts` (ServedResource[], ServedPrompt[]).
import type { LogLevel } from "./log-level.js";
import type { TraceHeaders } from "../telemetry/trace-context.js";

/** MCP tool annotations (hints). The motebit sets readOnlyHint/destructiveHint from the risk; a definition may add the rest. */
export interface ToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface ToolDefinition {
  /** MCP tool name; `motebit_` is reserved for the synthetic tools. */
  name: string;
  /** A human-readable name for listings. */
  title?: string;
  description: string;
  /** JSON Schema for the arguments, served to clients exactly as given. */
  inputSchema: Record<string, unknown>;
  /** JSON Schema a result's structuredContent must fit; a result that does not is a tool error. */
  outputSchema?: Record<string, unknown>;
  annotations?: ToolAnnotations;
  /** "R0_READ" … "R4_MONEY" or 0–4. Missing or unknown → the gate denies every call. */
  risk?: unknown;
  /** Acts for the owner: never listed or callable over HTTP. */
  localOnly?: boolean;
  /** MCP tasks extension: `optional` runs as a task for clients that negotiated it; `required` only as a task. */
  execution?: { taskSupport?: "optional" | "required" };
}

/** MCP content blocks a tool (or prompt message) may return. */
export type ContentBlock =
  | { type: "text"; text: string }
  | { type: "image"; data: string; mimeType: string }
  | { type: "audio"; data: string; mimeType: string }
  | { type: "resource_link"; uri: string; name: string; mimeType?: string; description?: string; title?: string }
  | { type: "resource"; resource: { uri: string; mimeType?: string; text: string } | { uri: string; mimeType?: string; blob: string } };

/**
 * `{ ok: true, data }` (text: strings as they are, anything else as JSON), or `{ ok: true, content }` and/or
 * `structuredContent`; `{ ok: false, error }` for a failure.
 */
export type ToolResult =
  | { ok: true; data?: unknown; content?: ContentBlock[]; structuredContent?: Record<string, unknown> }
  | { ok: false; error: string; content?: ContentBlock[] };

export interface ToolContext {
  /** Aborted on timeout or cancellation; well-behaved tools stop their work when it fires. */
  signal: AbortSignal;
  /** Reports progress; reaches the client only when its request asked for progress (_meta.progressToken). */
  progress(done: number, total?: number, message?: string): void;
  /** A log notification for the client; dropped below the level its session set. */
  log(level: LogLevel, data: unknown): void;
  /**
   * Asks the client's user (elicitation/create); rejects when the client cannot be asked. `key` names the question
   * in a 2026-07-28 input-required result (default: by order of asking); there the handler runs again from the
   * start once the client has answered, so everything before the last question must be safe to repeat.
   */
  elicit(params: Record<string, unknown>, key?: string): Promise<unknown>;
  /** Asks the client's model (sampling/createMessage); rejects when the client cannot be asked. `key`: as for elicit. */
  sample(params: Record<string, unknown>, key?: string): Promise<unknown>;
  /** Asks the client for its roots (roots/list); rejects when the client cannot be asked. `key`: as for elicit. */
  roots(key?: string): Promise<unknown>;
  /**
   * The W3C trace context of this run's span, when the operator turned telemetry on: a tool that calls out sends it
   * on (an MCP request's `_meta`, an HTTP request's headers), so the next hop joins the same trace.
   */
  trace?: TraceHeaders;
}

export interface ServedTool {
  definition: ToolDefinition;
  handler(args: Record<string, unknown>, ctx: ToolContext): ToolResult | Promise<ToolResult>;
}

/** What reading a served resource gives: text or base64 bytes. */
export type ResourceBody = { text: string } | { blob: string };

/** A resource from the tools module: a fixed `uri`, or a `uriTemplate` with `{name}` variables (RFC 6570 level 1). */
export interface ServedResource {
  uri?: string;
  uriTemplate?: string;
  name: string;
  title?: string;
  description?: string;
  mimeType?: string;
  /** Never listed or readable over HTTP. */
  localOnly?: boolean;
  read(uri: string, variables: Record<string, string>): ResourceBody | Promise<ResourceBody>;
  /** Values for completion/complete of a template variable. */
  complete?(variable: string, value: string): string[] | Promise<string[]>;
}

export interface PromptMessage {
  role: "user" | "assistant";
  content: ContentBlock;
}

export interface ServedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
  /** Never listed or served over HTTP. */
  localOnly?: boolean;
  /**
   * The prompt's messages. `ctx` may ask the client (elicit, sample, roots) exactly as a tool does: over a session
   * as a request back, on 2026-07-28 through an input-required result, after which get runs again from the start.
   */
  get(args: Record<string, string>, ctx: ToolContext): { description?: string; messages: PromptMessage[] } | Promise<{ description?: string; messages: PromptMessage[] }>;
  /** Values for completion/complete of an argument. */
  complete?(argument: string, value: string): string[] | Promise<string[]>;
}
