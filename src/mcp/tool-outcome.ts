import { identityTag, withIdentityTag } from "../protocol/index.js";
import type { ContentBlock } from "../tools/types.js";

/**
 * What a tool call produced, before it goes on the wire. Results (success or tool failure) carry the
 * identity tag; refusals (policy, approval, validation) do not — docs/protocol.md §2. A rich result keeps its
 * content blocks and structuredContent; its tag is still the last text block.
 */
export type ToolOutcome =
  | { kind: "ok"; text: string; meta?: Record<string, unknown> }
  | { kind: "ok_rich"; content: ContentBlock[]; structuredContent?: Record<string, unknown> }
  | { kind: "tool_error"; text: string; content?: ContentBlock[] }
  | { kind: "refused"; text: string };

export const ok = (text: string): ToolOutcome => ({ kind: "ok", text });
/** `meta` goes on the result's `_meta` (motebit_task's log proof), beside the tagged text. */
export const okJson = (value: unknown, meta?: Record<string, unknown>): ToolOutcome =>
  meta === undefined ? { kind: "ok", text: JSON.stringify(value) } : { kind: "ok", text: JSON.stringify(value), meta };
export const okRich = (content: ContentBlock[], structuredContent?: Record<string, unknown>): ToolOutcome => ({
  kind: "ok_rich",
  content,
  ...(structuredContent !== undefined && { structuredContent }),
});
/** With `content` (a tool that speaks MCP failed with blocks), those blocks go on the wire instead of `text`. */
export const toolError = (text: string, content?: ContentBlock[]): ToolOutcome =>
  content ? { kind: "tool_error", text, content } : { kind: "tool_error", text };
export const refused = (text: string): ToolOutcome => ({ kind: "refused", text });

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
  _meta?: Record<string, unknown>;
}

export function toCallToolResult(o: ToolOutcome, motebitId: string, publicKeyHex: string | null): CallToolResult {
  if (o.kind === "refused") return { content: [{ type: "text", text: o.text }], isError: true };
  if (o.kind === "ok_rich") {
    const content = tagBlocks(o.content, motebitId, publicKeyHex);
    return o.structuredContent === undefined ? { content } : { content, structuredContent: o.structuredContent };
  }
  const content: ContentBlock[] =
    o.kind === "tool_error" && o.content ? tagBlocks(o.content, motebitId, publicKeyHex) : [{ type: "text", text: withIdentityTag(o.text, motebitId, publicKeyHex) }];
  if (o.kind === "tool_error") return { content, isError: true };
  return o.meta === undefined ? { content } : { content, _meta: o.meta };
}

/** The tag stays the last thing in the result: on the final block when that is text, else as a text block of its own. */
function tagBlocks(blocks: ContentBlock[], motebitId: string, publicKeyHex: string | null): ContentBlock[] {
  const last = blocks.at(-1);
  if (last?.type === "text") return [...blocks.slice(0, -1), { ...last, text: withIdentityTag(last.text, motebitId, publicKeyHex) }];
  return [...blocks, { type: "text", text: identityTag(motebitId, publicKeyHex) }];
}
