// Runs one tool handler so that nothing it does — throwing, returning junk, ignoring the abort — escapes.

import type { ContentBlock, ServedTool, ToolResult } from "./types.js";

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
  const res = r as { ok: boolean; data?: unknown; error?: unknown; content?: unknown };
  if (res.content !== undefined && !isContent(res.content)) {
    return { ok: false, error: `tool "${name}" returned content that is not a list of MCP content blocks` };
  }
  const content = res.content === undefined ? {} : { content: res.content };
  if (!res.ok) {
    return typeof res.error === "string" && res.error !== ""
      ? { ok: false, error: res.error, ...content }
      : { ok: false, error: `tool "${name}" failed without an error message`, ...content };
  }
  if (!isSerialisable(res.data)) {
    return { ok: false, error: `tool "${name}" returned data that is neither a string nor JSON-serialisable` };
  }
  return { ok: true, data: res.data, ...content };
}

function isContent(v: unknown): v is ContentBlock[] {
  return (
    Array.isArray(v) &&
    v.every((b) => typeof b === "object" && b !== null && !Array.isArray(b) && typeof (b as { type?: unknown }).type === "string") &&
    isSerialisable(v)
  );
}

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
 * ignores its signal cannot hold the caller past a timeout.
 */
export async function invokeTool(tool: ServedTool, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolResult> {
  if (signal.aborted) return { ok: false, error: ABORTED };
  const name = tool.definition.name;
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<ToolResult>((resolve) => {
    onAbort = () => resolve({ ok: false, error: ABORTED });
    signal.addEventListener("abort", onAbort, { once: true });
  });
  const ran = (async (): Promise<ToolResult> => {
    try {
      return checkResult(name, await tool.handler(args, { signal }));
    } catch (err) {
      return { ok: false, error: errorMessage(err) };
    }
  })();
  try {
    return await Promise.race([ran, aborted]);
  } finally {
    signal.removeEventListener("abort", onAbort!);
  }
}

/** The text a successful result becomes: strings as they are, anything else as JSON. */
export function formatToolData(data: unknown): string {
  return typeof data === "string" ? data : (JSON.stringify(data) ?? "");
}
