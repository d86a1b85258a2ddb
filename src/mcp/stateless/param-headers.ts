// Mcp-Param-{Name} (2026-07-28, SEP-2243): a tool whose inputSchema marks a property `"x-mcp-header": "Name"` has
// that argument repeated in an HTTP header, so that an intermediary can route on it without reading the body. The
// server acts on the body, so a header that disagrees with it — or is missing while the body has the value — is
// refused (400, -32020): otherwise a proxy and this server would act on two different values. Checked at tools/call,
// the first point where the tool (and so its schema) is known, for every HTTP host alike.
import { readMirroredHeader } from "./revision.js";
import { echo } from "../../bounded/echo.js";

/** Deeper `properties` chains are not looked into (a schema is the module author's, so this only stops a runaway). */
const MAX_DEPTH = 8;

interface Declared {
  /** The chain of `properties` keys from the schema root to the marked property. */
  path: string[];
  /** The header's Name, as the schema spells it. */
  name: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The marked properties reachable from the root through `properties` keys only (the spec's "statically reachable"). */
function declared(schema: unknown, path: string[] = [], out: Declared[] = []): Declared[] {
  if (!isObject(schema) || !isObject(schema.properties) || path.length >= MAX_DEPTH) return out;
  for (const [key, sub] of Object.entries(schema.properties)) {
    if (!isObject(sub)) continue;
    if (typeof sub["x-mcp-header"] === "string") out.push({ path: [...path, key], name: sub["x-mcp-header"] });
    declared(sub, [...path, key], out);
  }
  return out;
}

/** A tool's schema is fixed once loaded: its marks are found once, not on every call. */
const bySchema = new WeakMap<object, Declared[]>();
function declaredOnce(schema: unknown): Declared[] {
  if (!isObject(schema)) return [];
  let d = bySchema.get(schema);
  if (d === undefined) bySchema.set(schema, (d = declared(schema)));
  return d;
}

/** An HTTP header name's characters (RFC 9110 token): a Name outside them cannot travel in a header at all. */
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The `Mcp-Param-{Name}` headers these tools' schemas declare, each once (first spelling wins, names compare
 * case-insensitively as header names do), in tool order: what a browser's CORS preflight must allow.
 */
export function declaredParamHeaders(schemas: Iterable<unknown>): string[] {
  const seen = new Map<string, string>();
  for (const schema of schemas) {
    for (const d of declaredOnce(schema)) {
      if (TOKEN.test(d.name) && !seen.has(d.name.toLowerCase())) seen.set(d.name.toLowerCase(), `Mcp-Param-${d.name}`);
    }
  }
  return [...seen.values()];
}

function valueAt(args: unknown, path: string[]): unknown {
  let v = args;
  for (const key of path) v = isObject(v) && Object.hasOwn(v, key) ? v[key] : undefined;
  return v;
}

/** Whether a decoded header value says the same as the body's: strings exactly, numbers numerically (42.0 = 42), booleans as true/false. */
function agrees(header: string, body: unknown): boolean {
  if (typeof body === "string") return header === body;
  if (typeof body === "boolean") return header === String(body);
  if (typeof body === "number") return /^-?\d+(\.\d+)?$/.test(header) && Number(header) === body;
  // An object or array cannot be mirrored in a header: whatever was sent cannot match it.
  return false;
}

/**
 * Why the request's `Mcp-Param-*` headers (by lower-cased Name) disagree with the arguments of a tool with this
 * inputSchema; null when they agree (always, for a tool that marks nothing). A value that is null or absent in the
 * body expects no header, and a header sent for it disagrees.
 */
export function paramHeaderMismatch(inputSchema: unknown, args: unknown, headers: Record<string, string>): string | null {
  for (const d of declaredOnce(inputSchema)) {
    const header = `Mcp-Param-${d.name}`;
    const raw = Object.hasOwn(headers, d.name.toLowerCase()) ? headers[d.name.toLowerCase()] : undefined;
    const body = valueAt(args, d.path);
    const field = `arguments.${d.path.join(".")}`;
    if (body === undefined || body === null) {
      if (raw !== undefined) return `${header} was sent but ${field} is absent`;
      continue;
    }
    if (raw === undefined) return `the ${header} header is required (${field} is in the body)`;
    const read = readMirroredHeader(header, raw);
    if (!read.ok) return read.why;
    if (!agrees(read.value, body)) return `${header} ${JSON.stringify(echo(read.value))} but ${field} is ${echo(JSON.stringify(body))}`;
  }
  return null;
}
