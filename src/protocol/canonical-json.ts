import { ProtocolError } from "./errors.js";

const MAX_DEPTH = 1000;

/**
 * RFC 8785 (JCS) for the data we sign: keys sorted by UTF-16 code units, undefined-valued keys dropped, no
 * whitespace, strings as JSON.stringify escapes them, numbers as JS serialises them. Throws ProtocolError on
 * non-finite numbers, bigint, functions/symbols, undefined in arrays, non-plain objects and cycles.
 */
export function canonicalJson(v: unknown): string {
  return write(v, new Set(), 0);
}

function write(v: unknown, stack: Set<object>, depth: number): string {
  switch (typeof v) {
    case "string":
      return JSON.stringify(v);
    case "number":
      if (!Number.isFinite(v)) throw new ProtocolError(`canonical JSON cannot encode the number ${v}`);
      return JSON.stringify(v); // ES number serialisation = JCS; -0 prints as 0
    case "boolean":
      return v ? "true" : "false";
    case "object":
      break;
    default:
      throw new ProtocolError(`canonical JSON cannot encode a ${typeof v}`);
  }
  if (v === null) return "null";
  if (depth >= MAX_DEPTH) throw new ProtocolError(`canonical JSON: nesting deeper than ${MAX_DEPTH}`);
  if (stack.has(v)) throw new ProtocolError("canonical JSON cannot encode a cycle");
  stack.add(v);
  try {
    if (Array.isArray(v)) {
      const parts: string[] = [];
      for (const item of v) {
        if (item === undefined) throw new ProtocolError("canonical JSON cannot encode undefined in an array");
        parts.push(write(item, stack, depth + 1));
      }
      return "[" + parts.join(",") + "]";
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON === "function") return write(toJSON.call(v), stack, depth + 1);
      throw new ProtocolError(`canonical JSON cannot encode a ${proto?.constructor?.name ?? "non-plain"} object`);
    }
    const obj = v as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(obj).sort()) {
      const value = obj[key];
      if (value === undefined) continue;
      parts.push(JSON.stringify(key) + ":" + write(value, stack, depth + 1));
    }
    return "{" + parts.join(",") + "}";
  } finally {
    stack.delete(v);
  }
}
