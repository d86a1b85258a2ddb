// A tools module's optional `resources` and `prompts` exports, checked at load like its tools: a bad entry is a
// start-up error naming it, never a crash on first use.
import type { ServedPrompt, ServedResource } from "./types.js";

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);
const optionalString = (v: unknown) => v === undefined || typeof v === "string";
/** RFC 6570 level 1: literal text and {name} variables. */
const TEMPLATE = /^[^{}]*(\{[A-Za-z0-9_]+\}[^{}]*)+$/;

export function checkResources(v: unknown): ServedResource[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error("tools module: the `resources` export must be an array");
  const seen = new Set<string>();
  return v.map((r, i) => {
    const at = `tools module: resources[${i}]`;
    if (!isObject(r)) throw new Error(`${at} must be an object`);
    if (typeof r.name !== "string" || r.name === "") throw new Error(`${at}: name is missing`);
    const hasUri = typeof r.uri === "string" && r.uri !== "";
    const hasTemplate = typeof r.uriTemplate === "string" && r.uriTemplate !== "";
    if (hasUri === hasTemplate) throw new Error(`${at} ("${r.name}"): give exactly one of uri and uriTemplate`);
    if (hasTemplate && !TEMPLATE.test(r.uriTemplate as string)) throw new Error(`${at} ("${r.name}"): uriTemplate needs {name} variables and nothing fancier`);
    const key = (hasUri ? r.uri : r.uriTemplate) as string;
    if (key.startsWith("motebit://")) throw new Error(`${at} ("${r.name}"): motebit:// URIs are the motebit's own`);
    if (seen.has(key)) throw new Error(`${at} ("${r.name}"): ${key} is a duplicate`);
    seen.add(key);
    for (const k of ["title", "description", "mimeType"]) if (!optionalString(r[k])) throw new Error(`${at} ("${r.name}"): ${k} must be a string`);
    if (typeof r.read !== "function") throw new Error(`${at} ("${r.name}"): read must be a function`);
    if (r.complete !== undefined && typeof r.complete !== "function") throw new Error(`${at} ("${r.name}"): complete must be a function`);
    return r as unknown as ServedResource;
  });
}

export function checkPrompts(v: unknown): ServedPrompt[] {
  if (v === undefined) return [];
  if (!Array.isArray(v)) throw new Error("tools module: the `prompts` export must be an array");
  const seen = new Set<string>();
  return v.map((p, i) => {
    const at = `tools module: prompts[${i}]`;
    if (!isObject(p)) throw new Error(`${at} must be an object`);
    if (typeof p.name !== "string" || p.name === "") throw new Error(`${at}: name is missing`);
    if (seen.has(p.name)) throw new Error(`${at} ("${p.name}") is a duplicate name`);
    seen.add(p.name);
    for (const k of ["title", "description"]) if (!optionalString(p[k])) throw new Error(`${at} ("${p.name}"): ${k} must be a string`);
    if (p.arguments !== undefined && (!Array.isArray(p.arguments) || !p.arguments.every((a) => isObject(a) && typeof a.name === "string"))) {
      throw new Error(`${at} ("${p.name}"): arguments must be an array of { name, description?, required? }`);
    }
    if (typeof p.get !== "function") throw new Error(`${at} ("${p.name}"): get must be a function`);
    if (p.complete !== undefined && typeof p.complete !== "function") throw new Error(`${at} ("${p.name}"): complete must be a function`);
    return p as unknown as ServedPrompt;
  });
}
