import { ProtocolError } from "./errors.js";

const MAX_DEPTH = 1000;

/**
 * RFC 8785 (JCS) for the data we sign: keys sorted by UTF-16 code units, undefined-valued keys dropped, no
 * whitespace, strings as JSON.stringify escapes them, numbers as JS serialises them. Throws ProtocolError on
 * non-finite numbers, bigint, functions/symbols, undefined in arrays, non-plain objects and cycles.
 */
export function canonicalJson(v: unknown): string {
  return write(v, []);
}

// `ancestors` is the path from the root: a value already on it is a cycle (a shared, non-cyclic value is fine).
function write(v: unknown, ancestors: object[]): string {
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
  if (ancestors.length >= MAX_DEPTH) throw new ProtocolError(`canonical JSON: nesting deeper than ${MAX_DEPTH}`);
  if (ancestors.includes(v)) throw new ProtocolError("canonical JSON cannot encode a cycle");
  ancestors.push(v);
  let out: string;
  if (Array.isArray(v)) {
    out = "[";
    for (let i = 0; i < v.length; i++) {
      const item: unknown = v[i];
      if (item === undefined) throw new ProtocolError("canonical JSON cannot encode undefined in an array");
      out += (i === 0 ? "" : ",") + write(item, ancestors);
    }
    out += "]";
  } else {
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      const toJSON = (v as { toJSON?: unknown }).toJSON;
      if (typeof toJSON !== "function") {
        throw new ProtocolError(`canonical JSON cannot encode a ${proto?.constructor?.name ?? "non-plain"} object`);
      }
      out = write(toJSON.call(v), ancestors);
    } else {
      const obj = v as Record<string, unknown>;
      const keys = Object.keys(obj).sort();
      out = "{";
      let first = true;
      for (const key of keys) {
        const value = obj[key];
        if (value === undefined) continue;
        out += (first ? "" : ",") + JSON.stringify(key) + ":" + write(value, ancestors);
        first = false;
      }
      out += "}";
    }
  }
  ancestors.pop();
  return out;
}
