// Direct mode (no LLM): pick one served tool and hand it the prompt as its first required string parameter.

import { echo } from "../bounded/echo.js";
import type { ServedTool } from "./types.js";

/**
 * The tool to run: every `required_capabilities` entry must be the exact (case-sensitive) name of a tool served
 * to this caller, and the first one named runs; with none named, the first served tool. A capability nothing
 * serves is an error, never a fallback: a receipt must not claim work that was not on offer.
 */
export function selectDirectTool(tools: ServedTool[], requiredCapabilities: string[] = []): { tool: ServedTool } | { error: string } {
  const named: ServedTool[] = [];
  for (const cap of requiredCapabilities) {
    const tool = tools.find((t) => t.definition.name === cap);
    if (tool === undefined) return { error: `no served tool provides ${JSON.stringify(echo(String(cap)))}` };
    named.push(tool);
  }
  const tool = named[0] ?? tools[0];
  return tool === undefined ? { error: "no served tool can run this task" } : { tool };
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
