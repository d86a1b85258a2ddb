// Runs one tool handler so that nothing it does — throwing, returning junk, ignoring the abort — escapes.

import type { ContentBlock, ServedTool, ToolContext, ToolResult } from "./types.js";
import { headersOf, type TraceScope } from "../telemetry/trace-scope.js";

const ABORTED = "aborted";

function errorMessage(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  return msg === "" ? "tool failed without a message" : msg;
}

/** Checks a handler's return value, so a malformed one becomes a clear failure rather than a crash later. */
function checkResult(name: string, r: unknown): ToolResult {
  if (typeof r !== "object" || r === null || typeof (r as { ok?: unknown }).ok !== "boolean") {
    return { ok: false, error: `tool "${name}" returned a malformed result (expected { ok: true, data } or { ok: false, error })` };
  }
  const res = r as { ok: boolean; data?: unknown; error?: unknown; content?: unknown; structuredContent?: unknown };
  if (!res.ok) {
    // A failure may carry MCP content blocks (a connected server's isError result); they go on the wire as given.
    const problem = res.content === undefined ? null : contentProblem(name, res.content);
    if (problem !== null) return { ok: false, error: problem };
    const content = res.content === undefined ? {} : { content: res.content as ContentBlock[] };
    return typeof res.error === "string" && res.error !== ""
      ? { ok: false, error: res.error, ...content }
      : { ok: false, error: `tool "${name}" failed without an error message`, ...content };
  }
  if (res.content !== undefined || res.structuredContent !== undefined) return checkRich(name, res);
  if (!isSerialisable(res.data)) {
    return { ok: false, error: `tool "${name}" returned data that is neither a string nor JSON-serialisable` };
  }
  return { ok: true, data: res.data };
}

/** Why `content` is not a list of MCP content blocks, or null when it is: one rule for results and failures. */
function contentProblem(name: string, content: unknown): string | null {
  const typed = (b: unknown) => isObject(b) && isString(b.type);
  if (!Array.isArray(content) || !content.every(typed)) return `tool "${name}" returned content that is not a list of MCP content blocks`;
  for (const [i, b] of content.entries()) {
    const problem = blockProblem(b);
    if (problem !== null) return `tool "${name}" returned a malformed result: content[${i}] ${problem}`;
  }
  return isSerialisable(content) ? null : `tool "${name}" returned content that is not JSON-serialisable`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

/** Why a content block is not one MCP knows, or null when it is. */
function blockProblem(b: unknown): string | null {
  if (!isObject(b)) return "is not an object";
  switch (b.type) {
    case "text":
      return isString(b.text) ? null : "(text) needs a string text";
    case "image":
    case "audio":
      return isString(b.data) && isString(b.mimeType) ? null : `(${b.type}) needs base64 data and a mimeType`;
    case "resource_link":
      return isString(b.uri) && isString(b.name) ? null : "(resource_link) needs a uri and a name";
    case "resource": {
      const r = b.resource;
      return isObject(r) && isString(r.uri) && (isString(r.text) || isString(r.blob)) ? null : "(resource) needs resource.uri and resource.text or resource.blob";
    }
    default:
      return `has an unknown type ${JSON.stringify(b.type)}`;
  }
}

function checkRich(name: string, res: { content?: unknown; structuredContent?: unknown; data?: unknown }): ToolResult {
  const bad = (why: string): ToolResult => ({ ok: false, error: `tool "${name}" returned a malformed result: ${why}` });
  const problem = res.content === undefined ? null : contentProblem(name, res.content);
  if (problem !== null) return { ok: false, error: problem };
  if (res.structuredContent !== undefined && (!isObject(res.structuredContent) || !isSerialisable(res.structuredContent))) {
    return bad("structuredContent must be a JSON object");
  }
  return {
    ok: true,
    ...(res.content !== undefined && { content: res.content as ContentBlock[] }),
    ...(res.structuredContent !== undefined && { structuredContent: res.structuredContent as Record<string, unknown> }),
    ...(res.data !== undefined && { data: res.data }),
  };
}

/** For callers with no client to report to (tasks run by the relay, tests): progress and logs go nowhere, asking fails. */
export const NO_CLIENT: Omit<ToolContext, "signal"> = {
  progress() {},
  log() {},
  elicit: async () => {
    throw new Error("no client to ask here");
  },
  sample: async () => {
    throw new Error("no client to ask here");
  },
  roots: async () => {
    throw new Error("no client to ask here");
  },
};

function isSerialisable(data: unknown): boolean {
  if (typeof data === "string") return true;
  try {
    return JSON.stringify(data) !== undefined;
  } catch {
    return false;
  }
}

/**
 * Resolves as soon as the handler settles or `signal` aborts, whichever is first: a handler that
 * ignores its signal cannot hold the caller past a timeout. One promise per call, settled once.
 */
/** No client, but the run's trace context for a tool that calls out (a task's step); NO_CLIENT without a trace. */
export function clientWithTrace(trace: TraceScope | undefined): Omit<ToolContext, "signal"> {
  return trace === undefined ? NO_CLIENT : { ...NO_CLIENT, trace: headersOf(trace) };
}

export function invokeTool(
  tool: ServedTool,
  args: Record<string, unknown>,
  signal: AbortSignal,
  client: Omit<ToolContext, "signal"> = NO_CLIENT,
): Promise<ToolResult> {
  if (signal.aborted) return Promise.resolve({ ok: false, error: ABORTED });
  const name = tool.definition.name;
  return new Promise<ToolResult>((resolve) => {
    const onAbort = () => resolve({ ok: false, error: ABORTED });
    signal.addEventListener("abort", onAbort, { once: true });
    const settle = (result: () => ToolResult) => {
      signal.removeEventListener("abort", onAbort);
      try {
        resolve(result());
      } catch (err) {
        resolve({ ok: false, error: errorMessage(err) });
      }
    };
    try {
      Promise.resolve(tool.handler(args, { ...client, signal })).then(
        (r) => settle(() => checkResult(name, r)),
        (err) => settle(() => ({ ok: false, error: errorMessage(err) })),
      );
    } catch (err) {
      settle(() => ({ ok: false, error: errorMessage(err) }));
    }
  });
}

/** The text of a successful result (what a receipt records): its data, else its text blocks, else its structuredContent as JSON. */
export function resultText(r: Extract<ToolResult, { ok: true }>): string {
  if (r.data !== undefined || (r.content === undefined && r.structuredContent === undefined)) return formatToolData(r.data);
  const texts = (r.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : []));
  return texts.length > 0 ? texts.join("\n") : JSON.stringify(r.structuredContent ?? null);
}

/** The text a successful result becomes: strings as they are, anything else as JSON. */
export function formatToolData(data: unknown): string {
  return typeof data === "string" ? data : (JSON.stringify(data) ?? "");
}
