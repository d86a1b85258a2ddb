// Direct mode (no LLM): pick one served tool and hand it the prompt as its first required string parameter.

import type { ServedTool } from "./types.js";

/**
 * The tool a single `required_capabilities` entry names, when this caller is served it;
 * otherwise the first served tool. null when nothing is served.
 */
export function selectDirectTool(tools: ServedTool[], requiredCapabilities?: string[]): ServedTool | null {
  if (requiredCapabilities?.length === 1) {
    const named = tools.find((t) => t.definition.name === requiredCapabilities[0]);
    if (named) return named;
  }
  return tools[0] ?? null;
}

function acceptsString(prop: unknown): boolean {
  if (typeof prop !== "object" || prop === null) return false;
  const type = (prop as { type?: unknown }).type;
  return type === "string" || (Array.isArray(type) && type.includes("string"));
}

/**
 * `{ args: { <first required string property, in "required" order>: prompt } }`, or `{ error }` when the tool
 * has none. The args are wrapped so a parameter that happens to be named "error" cannot read as a failure.
 */
export function mapPromptToArgs(tool: ServedTool, prompt: string): { args: Record<string, unknown> } | { error: string } {
  const schema = tool.definition.inputSchema;
  const required = Array.isArray(schema.required) ? schema.required : [];
  const properties = (typeof schema.properties === "object" && schema.properties !== null ? schema.properties : {}) as Record<string, unknown>;
  const key = required.find((k): k is string => typeof k === "string" && Object.hasOwn(properties, k) && acceptsString(properties[k]));
  if (key === undefined) {
    return { error: `tool "${tool.definition.name}" has no required string parameter to take the prompt` };
  }
  return { args: { [key]: prompt } };
}
