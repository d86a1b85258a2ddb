// A tool's arguments against its inputSchema, before a handler sees them (full JSON Schema: ./json-schema.ts).
import { schemaProblem } from "./json-schema.js";

/**
 * null when `args` fits `schema`, else the first problem found. With `toolName` the message reads
 * `Invalid arguments for tool "<name>": …`, without it `Invalid arguments: …`.
 */
export function validateArgs(schema: Record<string, unknown>, args: unknown, toolName?: string): string | null {
  const problem = typeof args === "object" && args !== null && !Array.isArray(args) ? schemaProblem(schema, args) : "arguments must be an object";
  if (problem === null) return null;
  return toolName === undefined ? `Invalid arguments: ${problem}` : `Invalid arguments for tool "${toolName}": ${problem}`;
}
