// JSON Schema (draft 2020-12) through @cfworker/json-schema: it interprets schemas instead of generating code, so
// it runs in Workers. A schema is compiled once (checked, dereferenced) and kept beside the object it came from;
// a value's first problem is phrased for people: `"path" must be a string`, `"path" is required`.
import { Validator, type OutputUnit } from "@cfworker/json-schema";
import { echo } from "../bounded/echo.js";

export interface CompiledSchema {
  /**
   * null when `value` fits, else its first problem. Places are named from inside the value (`"a.b"`), or from
   * `root` when given (`"params.a.b"`).
   */
  problem(value: unknown, root?: string): string | null;
}

const TYPE_NAMES = new Set(["string", "number", "integer", "boolean", "array", "object", "null"]);
const SCHEMA_KEYWORDS = ["items", "additionalProperties", "unevaluatedProperties", "unevaluatedItems", "contains", "propertyNames", "not", "if", "then", "else"];
const SCHEMA_LIST_KEYWORDS = ["prefixItems", "allOf", "anyOf", "oneOf"];
const SCHEMA_MAP_KEYWORDS = ["properties", "patternProperties", "$defs", "definitions", "dependentSchemas"];
/** Keywords the library does not implement for 2020-12: a schema using them would be enforced only in part. */
const UNSUPPORTED = ["$dynamicRef", "$dynamicAnchor"];

const cache = new WeakMap<object, CompiledSchema>();

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Compiles `schema` or throws an Error saying what in it cannot be compiled. Compiling the same object again
 * returns the first result.
 */
export function compileSchema(schema: unknown): CompiledSchema {
  if (isPlainObject(schema)) {
    const known = cache.get(schema);
    if (known !== undefined) return known;
  }
  // The library annotates the objects it dereferences; a JSON copy keeps a caller's (possibly frozen) schema intact.
  let copy: unknown;
  try {
    copy = JSON.parse(JSON.stringify(schema));
  } catch (e) {
    throw new Error(`the schema is not JSON (${(e as Error).message})`);
  }
  if (!isPlainObject(copy) && typeof copy !== "boolean") throw new Error("a schema must be an object or a boolean");
  checkShape(copy, "#");
  const validator = new Validator(copy as object, "2020-12", true);
  checkRefs(copy, validator);
  const compiled: CompiledSchema = { problem: (value, root) => firstProblem(validator, value, root) };
  if (isPlainObject(schema)) cache.set(schema, compiled);
  return compiled;
}

/** `compileSchema(schema).problem(value)`, or the compile error itself when the schema was never loaded through a check. */
export function schemaProblem(schema: unknown, value: unknown): string | null {
  let compiled: CompiledSchema;
  try {
    compiled = compileSchema(schema);
  } catch (e) {
    return `the schema cannot be used: ${(e as Error).message}`;
  }
  return compiled.problem(value);
}

function checkShape(s: unknown, at: string): void {
  if (typeof s === "boolean") return;
  if (!isPlainObject(s)) throw new Error(`${at} must be a schema (an object or a boolean)`);
  for (const k of UNSUPPORTED) if (k in s) throw new Error(`${at}/${k} is not supported`);
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type : [s.type];
    for (const t of types) if (typeof t !== "string" || !TYPE_NAMES.has(t)) throw new Error(`${at}/type: ${JSON.stringify(t)} is not a JSON Schema type`);
  }
  if (s.required !== undefined && !(Array.isArray(s.required) && s.required.every((r) => typeof r === "string"))) {
    throw new Error(`${at}/required must be an array of property names`);
  }
  if (s.enum !== undefined && !Array.isArray(s.enum)) throw new Error(`${at}/enum must be an array`);
  if (s.pattern !== undefined) checkPattern(s.pattern, `${at}/pattern`);
  for (const k of SCHEMA_KEYWORDS) if (s[k] !== undefined) checkShape(s[k], `${at}/${k}`);
  for (const k of SCHEMA_LIST_KEYWORDS) {
    if (s[k] === undefined) continue;
    if (!Array.isArray(s[k])) throw new Error(`${at}/${k} must be an array of schemas`);
    (s[k] as unknown[]).forEach((sub, i) => checkShape(sub, `${at}/${k}/${i}`));
  }
  for (const k of SCHEMA_MAP_KEYWORDS) {
    if (s[k] === undefined) continue;
    if (!isPlainObject(s[k])) throw new Error(`${at}/${k} must be an object of schemas`);
    for (const [name, sub] of Object.entries(s[k] as Record<string, unknown>)) {
      if (k === "patternProperties") checkPattern(name, `${at}/${k}`);
      checkShape(sub, `${at}/${k}/${name}`);
    }
  }
}

function checkPattern(p: unknown, at: string): void {
  try {
    if (typeof p !== "string") throw new Error("not a string");
    new RegExp(p, "u");
  } catch (e) {
    throw new Error(`${at}: ${JSON.stringify(p)} is not a regular expression (${(e as Error).message})`);
  }
}

/** Every $ref must name a schema the document holds: the library would otherwise fail only when a value reaches it. */
function checkRefs(schema: unknown, validator: Validator): void {
  const lookup = (validator as unknown as { lookup: Record<string, unknown> }).lookup;
  const walk = (s: unknown): void => {
    if (Array.isArray(s)) return s.forEach(walk);
    if (!isPlainObject(s)) return;
    const ref = (s as { __absolute_ref__?: string }).__absolute_ref__;
    if (typeof s.$ref === "string" && (ref === undefined || lookup[ref] === undefined)) throw new Error(`$ref ${JSON.stringify(s.$ref)} names no schema in this document`);
    for (const [k, v] of Object.entries(s)) if (k !== "enum" && k !== "const" && k !== "default" && k !== "examples") walk(v);
  };
  walk(schema);
}

function firstProblem(validator: Validator, value: unknown, root: string | undefined): string | null {
  let errors: OutputUnit[];
  try {
    const r = validator.validate(value);
    if (r.valid) return null;
    errors = r.errors;
  } catch (e) {
    // A value JSON cannot carry (undefined, a function) inside the arguments.
    return `the value holds something that is not JSON (${(e as Error).message.replace(/^Instances of /, "")})`;
  }
  // Errors run from the outermost keyword to the one that failed; the last is the one worth telling.
  return describe(errors[errors.length - 1], root);
}

/** `#/a/b~1c` as `a.b/c`, under `root` when given; "" for the whole value. */
function place(instanceLocation: string, root: string | undefined): string {
  const parts = instanceLocation
    .replace(/^#\/?/, "")
    .split("/")
    .filter((p) => p !== "")
    .map((p) => decodeURIComponent(p).replace(/~1/g, "/").replace(/~0/g, "~"));
  if (root) parts.unshift(root);
  return echo(parts.join("."));
}

function article(type: string): string {
  return /^[aeiou]/.test(type) ? `an ${type}` : `a ${type}`;
}

function describe(e: OutputUnit, root: string | undefined): string {
  const where = place(e.instanceLocation, root);
  const quoted = where === "" ? "arguments" : `"${where}"`;
  const types = /Expected "(.*)"\.$/.exec(e.error);
  if (e.keyword === "type" && types) {
    const list = types[1].split('", "').map(article).join(" or ");
    return `${quoted} must be ${list}`;
  }
  const required = /required property "(.*)"\.$/.exec(e.error);
  if (e.keyword === "required" && required) {
    const key = where === "" ? required[1] : `${where}.${required[1]}`;
    return `"${echo(key)}" is required`;
  }
  const values = /does not match any of (.*)\.$/.exec(e.error);
  if (e.keyword === "enum" && values) {
    const list = (JSON.parse(values[1]) as unknown[]).map((v) => JSON.stringify(v)).join(", ");
    return `${quoted} must be one of ${list}`;
  }
  // `additionalProperties: false` fails as the boolean schema false at the extra property.
  if (e.keyword === "false") return `unexpected property ${quoted}`;
  return `${quoted}: ${e.error.replace(/\.$/, "")}`;
}
