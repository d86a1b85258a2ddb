// Loads a tools module once, refuses a bad one with a message naming the tool, and serves it per transport.
// Beside the module's fixed tools it holds named sets that come and go while the motebit runs (the owner's
// connected MCP servers): the same checks, the same lookups, so there is one catalog and one call path.

import { parseRisk, type RiskLevel } from "../policy/risk.js";
import { annotationsProblem } from "./annotations.js";
import type { ServedPrompt, ServedResource, ServedTool } from "./types.js";
import { checkPrompts, checkResources } from "./module-extras.js";
import { compileSchema } from "./json-schema.js";
import { admits, servedAudience, type Viewer } from "../policy/admission/audience.js";

/** MCP's recommended tool-name alphabet; anything else breaks some clients. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const RESERVED_PREFIX = "motebit_";

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkTool(entry: unknown, index: number, origin = "tools module"): ServedTool {
  const at = `${origin}: entry ${index}`;
  if (!isPlainObject(entry)) throw new Error(`${at} must be an object { definition, handler }`);
  const def = entry.definition;
  if (!isPlainObject(def)) throw new Error(`${at} has no definition object`);
  if (typeof def.name !== "string" || def.name === "") throw new Error(`${at}: definition.name is missing`);
  const label = `${at} ("${def.name}")`;
  if (!TOOL_NAME.test(def.name)) {
    throw new Error(`${label}: name must be 1-128 characters of A-Z a-z 0-9 _ - .`);
  }
  if (def.name.startsWith(RESERVED_PREFIX)) {
    throw new Error(`${label}: names starting with "${RESERVED_PREFIX}" are reserved for the motebit's own tools`);
  }
  if (typeof def.description !== "string" || def.description.trim() === "") {
    throw new Error(`${label}: definition.description is missing`);
  }
  if (!isPlainObject(def.inputSchema)) throw new Error(`${label}: definition.inputSchema is missing`);
  if (def.inputSchema.type !== "object") {
    throw new Error(`${label}: definition.inputSchema.type must be "object" (MCP tool arguments are an object)`);
  }
  if (def.localOnly !== undefined && typeof def.localOnly !== "boolean") {
    throw new Error(`${label}: definition.localOnly must be true or false`);
  }
  if (def.title !== undefined && typeof def.title !== "string") throw new Error(`${label}: definition.title must be a string`);
  if (def.outputSchema !== undefined && (!isPlainObject(def.outputSchema) || def.outputSchema.type !== "object")) {
    throw new Error(`${label}: definition.outputSchema must be a JSON Schema with type "object"`);
  }
  compileOrRefuse(def.inputSchema, `${label}: definition.inputSchema`);
  if (def.outputSchema !== undefined) compileOrRefuse(def.outputSchema, `${label}: definition.outputSchema`);
  const annotations = annotationsProblem(def.annotations, parseRisk(def.risk));
  if (annotations !== null) throw new Error(`${label}: ${annotations}`);
  if (typeof entry.handler !== "function") throw new Error(`${label}: handler must be a function`);
  return entry as unknown as ServedTool;
}

/** Compiled once here, at load; the call path finds the compiled form by the same schema object. */
function compileOrRefuse(schema: unknown, label: string): void {
  try {
    compileSchema(schema);
  } catch (e) {
    throw new Error(`${label} cannot be compiled: ${(e as Error).message}`);
  }
}

/** A tool a dynamic source offered that did not join the registry, and why. */
export interface RejectedTool {
  name: string;
  reason: string;
}

export class ToolRegistry {
  private readonly moduleTools: ServedTool[];
  /** Named sets that change at run time, in the order their sources first appeared. */
  private readonly sources = new Map<string, ServedTool[]>();
  private byName: Map<string, ServedTool>;
  private readonly listeners = new Set<() => void>();
  /** Bumped whenever the set of tools is rebuilt (handlers included), so what is derived from it knows to rebuild too. */
  private revision = 0;

  private constructor(
    tools: ServedTool[],
    private readonly resourceList: ServedResource[],
    private readonly promptList: ServedPrompt[],
  ) {
    this.moduleTools = tools;
    this.byName = new Map(tools.map((t) => [t.definition.name, t]));
  }

  /**
   * Validates a module's default export (an array of { definition, handler }) and, when given, its `resources`
   * and `prompts` exports. Definitions are kept as given.
   */
  static fromModule(exported: unknown, extras: { resources?: unknown; prompts?: unknown } = {}): ToolRegistry {
    if (!Array.isArray(exported)) {
      throw new Error("tools module: the default export must be an array of { definition, handler }");
    }
    const tools = exported.map((e, i) => checkTool(e, i));
    const seen = new Set<string>();
    tools.forEach((t, i) => {
      if (seen.has(t.definition.name)) throw new Error(`tools module: entry ${i} ("${t.definition.name}") is a duplicate name`);
      seen.add(t.definition.name);
    });
    return new ToolRegistry(tools, checkResources(extras.resources), checkPrompts(extras.prompts));
  }

  /** The same module narrowed to `names` (a fleet motebit's own selection); throws naming a tool the module does not have. */
  only(names: readonly string[]): ToolRegistry {
    const missing = names.filter((n) => !this.moduleTools.some((t) => t.definition.name === n));
    if (missing.length > 0) throw new Error(`no served tool named ${missing.map((n) => JSON.stringify(n)).join(", ")}`);
    return new ToolRegistry(this.moduleTools.filter((t) => names.includes(t.definition.name)), this.resourceList, this.promptList);
  }

  /** The module's resources (fixed and templates) this viewer may see: a peer never sees the localOnly ones. */
  resources(viewer: Viewer): ServedResource[] {
    return this.resourceList.filter((r) => admits(servedAudience(r), viewer));
  }

  prompts(viewer: Viewer): ServedPrompt[] {
    return this.promptList.filter((p) => admits(servedAudience(p), viewer));
  }

  /** Module tools in module order, then each source's, as this viewer may see them: localOnly tools do not exist for a peer. */
  list(viewer: Viewer): ServedTool[] {
    return [...this.byName.values()].filter((t) => admits(servedAudience(t.definition), viewer));
  }

  get(name: string, viewer: Viewer): ServedTool | undefined {
    const tool = this.byName.get(name);
    return tool && admits(servedAudience(tool.definition), viewer) ? tool : undefined;
  }

  /** The declared risk, or null when the tool is unknown or declares none the gate can read. */
  riskOf(name: string): RiskLevel | null {
    const tool = this.byName.get(name);
    return tool ? parseRisk(tool.definition.risk) : null;
  }

  /**
   * Sets what `source` offers now, replacing what it offered before. Each entry passes the module checks; one
   * that fails, or whose name is already taken (by the module or another source), stays out and is returned.
   */
  replaceSource(source: string, entries: readonly unknown[]): RejectedTool[] {
    const rejected: RejectedTool[] = [];
    const taken = new Set([...this.byName.keys()].filter((n) => !this.sources.get(source)?.some((t) => t.definition.name === n)));
    const accepted: ServedTool[] = [];
    entries.forEach((entry, i) => {
      let tool: ServedTool;
      try {
        tool = checkTool(entry, i, `source "${source}"`);
      } catch (e) {
        const name = (entry as { definition?: { name?: unknown } })?.definition?.name;
        rejected.push({ name: typeof name === "string" ? name : `entry ${i}`, reason: (e as Error).message });
        return;
      }
      if (taken.has(tool.definition.name)) {
        rejected.push({ name: tool.definition.name, reason: `the name "${tool.definition.name}" is already taken` });
        return;
      }
      taken.add(tool.definition.name);
      accepted.push(tool);
    });
    const before = this.sources.get(source);
    this.sources.set(source, accepted);
    this.rebuild(before === undefined ? accepted.length > 0 : !sameDefinitions(before, accepted));
    return rejected;
  }

  /** Takes away everything `source` offered. */
  removeSource(source: string): void {
    const before = this.sources.get(source);
    if (before === undefined) return;
    this.sources.delete(source);
    this.rebuild(before.length > 0);
  }

  /** Changes whenever list/get could answer differently (a source replaced or removed). */
  get generation(): number {
    return this.revision;
  }

  /** Called after every change to the set of tools; returns the unsubscribe function. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  private rebuild(changed: boolean): void {
    const all = [...this.moduleTools, ...[...this.sources.values()].flat()];
    this.byName = new Map(all.map((t) => [t.definition.name, t]));
    this.revision++;
    if (changed) for (const l of this.listeners) l();
  }
}

/** Same names, descriptions, schemas and risks in the same order: nothing a caller could see has changed. */
function sameDefinitions(a: ServedTool[], b: ServedTool[]): boolean {
  return a.length === b.length && JSON.stringify(a.map((t) => t.definition)) === JSON.stringify(b.map((t) => t.definition));
}
