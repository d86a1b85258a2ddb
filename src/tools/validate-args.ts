// A small JSON Schema subset, enough to refuse wrong arguments before a handler sees them.
// Checked: args is an object; `required`; top-level `properties` with `type` (one name or a list) and `enum`;
// `additionalProperties: false`. Other keywords (nested schemas, formats, bounds) are the tool's own business.

import { canonicalJson } from "../protocol/index.js";
import { echo } from "../protocol/echo.js";

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

const TYPE_CHECKS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === "string",
  number: (v) => typeof v === "number" && Number.isFinite(v),
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === "boolean",
  array: (v) => Array.isArray(v),
  object: isPlainObject,
  null: (v) => v === null,
};

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  try {
    return canonicalJson(a) === canonicalJson(b);
  } catch {
    return false;
  }
}

function checkProperty(key: string, value: unknown, prop: Record<string, unknown>): string | null {
  const types = typeof prop.type === "string" ? [prop.type] : Array.isArray(prop.type) ? prop.type.filter((t) => typeof t === "string") : [];
  const known = types.filter((t) => t in TYPE_CHECKS);
  if (known.length > 0 && !known.some((t) => TYPE_CHECKS[t](value))) {
    return `"${key}" must be ${known.map(article).join(" or ")}`;
  }
  if (Array.isArray(prop.enum) && !prop.enum.some((e) => sameValue(e, value))) {
    return `"${key}" must be one of ${prop.enum.map((e) => JSON.stringify(e)).join(", ")}`;
  }
  return null;
}

/**
 * null when `args` fits `schema`, else the first problem found. With `toolName` the message reads
 * `Invalid arguments for tool "<name>": …`, without it `Invalid arguments: …`.
 */
export function validateArgs(schema: Record<string, unknown>, args: unknown, toolName?: string): string | null {
  const problem = findProblem(schema, args);
  if (problem === null) return null;
  return toolName === undefined ? `Invalid arguments: ${problem}` : `Invalid arguments for tool "${toolName}": ${problem}`;
}

function findProblem(schema: Record<string, unknown>, args: unknown): string | null {
  if (!isPlainObject(args)) return "arguments must be an object";
  const properties = isPlainObject(schema.properties) ? schema.properties : {};
  if (Array.isArray(schema.required)) {
    for (const key of schema.required) {
      if (typeof key === "string" && (!Object.hasOwn(args, key) || args[key] === undefined)) return `"${key}" is required`;
    }
  }
  for (const [key, value] of Object.entries(args)) {
    const prop = Object.hasOwn(properties, key) ? properties[key] : undefined;
    if (prop === undefined) {
      if (schema.additionalProperties === false) return `unexpected property "${echo(key)}"`;
      continue;
    }
    if (!isPlainObject(prop)) continue;
    const problem = checkProperty(key, value, prop);
    if (problem !== null) return problem;
  }
  return null;
}
