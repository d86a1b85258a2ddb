import { withIdentityTag } from "../protocol/index.js";

/**
 * What a tool call produced, before it goes on the wire. Results (success or tool failure) carry the
 * identity tag; refusals (policy, approval, validation) do not — PROTOCOL §2.
 */
export type ToolOutcome =
  | { kind: "ok"; text: string }
  | { kind: "tool_error"; text: string }
  | { kind: "refused"; text: string };

export const ok = (text: string): ToolOutcome => ({ kind: "ok", text });
export const okJson = (value: unknown): ToolOutcome => ({ kind: "ok", text: JSON.stringify(value) });
export const toolError = (text: string): ToolOutcome => ({ kind: "tool_error", text });
export const refused = (text: string): ToolOutcome => ({ kind: "refused", text });

export interface CallToolResult {
  content: { type: "text"; text: string }[];
  isError?: boolean;
}

export function toCallToolResult(o: ToolOutcome, motebitId: string, publicKeyHex: string | null): CallToolResult {
  if (o.kind === "refused") return { content: [{ type: "text", text: o.text }], isError: true };
  const text = withIdentityTag(o.text, motebitId, publicKeyHex);
  return o.kind === "ok" ? { content: [{ type: "text", text }] } : { content: [{ type: "text", text }], isError: true };
}
