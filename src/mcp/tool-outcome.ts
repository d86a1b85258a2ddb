import { identityTag, withIdentityTag } from "../protocol/index.js";
import type { ContentBlock } from "../tools/types.js";

/**
 * What a tool call produced, before it goes on the wire. Results (success or tool failure) carry the
 * identity tag; refusals (policy, approval, validation) do not — PROTOCOL §2. A rich result keeps its
 * content blocks and structuredContent; its tag is still the last text block.
 */
export type ToolOutcome =
  | { kind: "ok"; text: string }
  | { kind: "ok_rich"; content: ContentBlock[]; structuredContent?: Record<string, unknown> }
  | { kind: "tool_error"; text: string }
  | { kind: "refused"; text: string };

export const ok = (text: string): ToolOutcome => ({ kind: "ok", text });
export const okJson = (value: unknown): ToolOutcome => ({ kind: "ok", text: JSON.stringify(value) });
export const okRich = (content: ContentBlock[], structuredContent?: Record<string, unknown>): ToolOutcome => ({
  kind: "ok_rich",
  content,
  ...(structuredContent !== undefined && { structuredContent }),
});
export const toolError = (text: string): ToolOutcome => ({ kind: "tool_error", text });
export const refused = (text: string): ToolOutcome => ({ kind: "refused", text });

export interface CallToolResult {
  content: ContentBlock[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

export function toCallToolResult(o: ToolOutcome, motebitId: string, publicKeyHex: string | null): CallToolResult {
  if (o.kind === "refused") return { content: [{ type: "text", text: o.text }], isError: true };
  if (o.kind === "ok_rich") {
    // A trailing text block takes the tag on its own line, as a plain result does; otherwise the tag is its own block.
    const content = [...o.content];
    const last = content[content.length - 1];
    if (last?.type === "text") content[content.length - 1] = { type: "text", text: withIdentityTag(last.text, motebitId, publicKeyHex) };
    else content.push({ type: "text", text: identityTag(motebitId, publicKeyHex) });
    return o.structuredContent === undefined ? { content } : { content, structuredContent: o.structuredContent };
  }
  const text = withIdentityTag(o.text, motebitId, publicKeyHex);
  return o.kind === "ok" ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], isError: true };
}
