// Loads a tools module once, refuses a bad one with a message naming the tool, and serves it per transport.

import { parseRisk, type RiskLevel } from "../policy/risk.js";
import { annotationsProblem } from "./annotations.js";
import type { ServedPrompt, ServedResource, ServedTool, ToolDefinition } from "./types.js";
import { checkPrompts, checkResources } from "./module-extras.js";

/** MCP's recommended tool-name alphabet; anything else breaks some clients. */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;
const RESERVED_PREFIX = "motebit_";

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

function checkTool(entry: unknown, index: number): ServedTool {
  const at = `tools module: entry ${index}`;
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
  const annotations = annotationsProblem(def.annotations, parseRisk(def.risk));
  if (annotations !== null) throw new Error(`${label}: ${annotations}`);
  if (typeof entry.handler !== "function") throw new Error(`${label}: handler must be a function`);
  return entry as unknown as ServedTool;
}

export class ToolRegistry {
  private readonly byName: Map<string, ServedTool>;

  private constructor(
    tools: ServedTool[],
    private readonly resourceList: ServedResource[],
    private readonly promptList: ServedPrompt[],
  ) {
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
    const tools = exported.map(checkTool);
    const seen = new Set<string>();
    tools.forEach((t, i) => {
      if (seen.has(t.definition.name)) throw new Error(`tools module: entry ${i} ("${t.definition.name}") is a duplicate name`);
      seen.add(t.definition.name);
    });
    return new ToolRegistry(tools, checkResources(extras.resources), checkPrompts(extras.prompts));
  }

  /** The module's resources (fixed and templates); over HTTP without the localOnly ones. */
  resources(opts: { overHttp: boolean }): ServedResource[] {
    return this.resourceList.filter((r) => !(opts.overHttp && r.localOnly === true));
  }

  prompts(opts: { overHttp: boolean }): ServedPrompt[] {
    return this.promptList.filter((p) => !(opts.overHttp && p.localOnly === true));
  }

  /** In module order. Over HTTP the caller is a peer, so localOnly tools do not exist for it. */
  list(opts: { overHttp: boolean }): ServedTool[] {
    return [...this.byName.values()].filter((t) => !(opts.overHttp && isLocalOnly(t.definition)));
  }

  get(name: string, opts: { overHttp: boolean }): ServedTool | undefined {
    const tool = this.byName.get(name);
    return tool && !(opts.overHttp && isLocalOnly(tool.definition)) ? tool : undefined;
  }

  /** The declared risk, or null when the tool is unknown or declares none the gate can read. */
  riskOf(name: string): RiskLevel | null {
    const tool = this.byName.get(name);
    return tool ? parseRisk(tool.definition.risk) : null;
  }
}

function isLocalOnly(def: ToolDefinition): boolean {
  return def.localOnly === true;
}
