import type { CallableTool } from "../agent/turn-context.js";
import type { MotebitContext } from "./context.js";
import type { SyntheticTool } from "./synthetic/index.js";
import { SYNTHETIC_TOOLS } from "./synthetic/index.js";
import type { ServedTool, ToolAnnotations } from "../tools/types.js";
import { annotationsFor } from "../tools/annotations.js";
import type { RiskLevel } from "../policy/risk.js";
import { riskName } from "../policy/risk.js";
import { decide } from "../policy/gate.js";
import type { Principal } from "../principal.js";
import { isTaskSupport, type TaskSupport } from "./stateless/tasks-extension.js";

export interface CatalogEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  title?: string;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Set when the tool may run as an MCP task (tasks extension). */
  taskSupport?: TaskSupport;
  /** null for a served tool that declared no usable risk: the gate denies it. */
  risk: RiskLevel | null;
  tool: { kind: "synthetic"; impl: SyntheticTool } | { kind: "served"; impl: ServedTool };
}

/** A motebit's catalogs, one per principal kind, as of one registry generation. */
interface CachedCatalogs {
  generation: number;
  byKind: Map<Principal["kind"], { entries: readonly CatalogEntry[]; byName: Map<string, CatalogEntry> }>;
}

const cache = new WeakMap<MotebitContext, CachedCatalogs>();

/**
 * Every tool this principal can see, built once per principal kind and kept until the registry changes: what a
 * principal sees depends only on its kind (owner or peer), the motebit's fixed type and the registry's tools.
 * The entries are shared between calls: read them, never change them.
 */
export function catalogFor(m: MotebitContext, p: Principal): readonly CatalogEntry[] {
  return cachedCatalog(m, p).entries;
}

function cachedCatalog(m: MotebitContext, p: Principal) {
  let c = cache.get(m);
  if (c === undefined || c.generation !== m.registry.generation) {
    c = { generation: m.registry.generation, byKind: new Map() };
    cache.set(m, c);
  }
  let built = c.byKind.get(p.kind);
  if (built === undefined) {
    const entries = buildCatalog(m, p);
    const byName = new Map<string, CatalogEntry>();
    // The first entry of a name wins, as a search of the list would find it.
    for (const e of entries) if (!byName.has(e.name)) byName.set(e.name, e);
    built = { entries, byName };
    c.byKind.set(p.kind, built);
  }
  return built;
}

/** The synthetic tools this motebit offers, then its served tools (never localOnly or owner-only over HTTP). */
function buildCatalog(m: MotebitContext, p: Principal): CatalogEntry[] {
  const entries: CatalogEntry[] = SYNTHETIC_TOOLS.filter((t) => t.offered(m) && (!t.ownerOnly || p.kind === "owner")).map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: annotationsFor(t.risk, undefined),
    ...(t.taskSupport !== undefined && { taskSupport: t.taskSupport }),
    risk: t.risk,
    tool: { kind: "synthetic", impl: t },
  }));
  for (const s of m.registry.list({ overHttp: p.kind === "peer" })) {
    const risk = m.registry.riskOf(s.definition.name);
    entries.push({
      name: s.definition.name,
      description: s.definition.description,
      inputSchema: s.definition.inputSchema,
      ...(s.definition.title !== undefined && { title: s.definition.title }),
      ...(s.definition.outputSchema !== undefined && { outputSchema: s.definition.outputSchema }),
      annotations: annotationsFor(risk, s.definition.annotations),
      ...(isTaskSupport(s.definition.execution?.taskSupport) && { taskSupport: s.definition.execution.taskSupport }),
      risk,
      tool: { kind: "served", impl: s },
    });
  }
  return entries;
}

export function findTool(m: MotebitContext, p: Principal, name: string): CatalogEntry | undefined {
  return cachedCatalog(m, p).byName.get(name);
}

/**
 * Why this principal's call of a listed tool would be refused, in the words of the refusal itself; null when it
 * would run. The gate comes first, as in callTool. tools/list and motebit_tools both read this, so they agree.
 */
export function refusalFor(m: MotebitContext, p: Principal, e: CatalogEntry): string | null {
  const decision = decide({ toolName: e.name, risk: e.risk, principal: p, governance: m.governance });
  if (decision.outcome !== "allow") return decision.message;
  return e.tool.kind === "synthetic" ? (e.tool.impl.refusal?.(m, p) ?? null) : null;
}

/** What this principal may call without a refusal: the answer of motebit_tools. */
export function callableTools(m: MotebitContext, p: Principal): CallableTool[] {
  return catalogFor(m, p)
    .filter((e) => refusalFor(m, p, e) === null)
    // A null risk is always refused by the gate, so every entry here has a level.
    .map((e) => ({ name: e.name, description: e.description, risk: e.risk as RiskLevel, risk_name: riskName(e.risk as RiskLevel) }));
}

/**
 * The tools/list answer: every tool this principal can see, so profile conformance holds (a service motebit lists
 * motebit_task even to a caller who may not run it). A tool this caller would be refused says so, with the reason,
 * in its description (what a model reads) and in `_meta` (what code reads).
 */
export function toolsListFor(m: MotebitContext, p: Principal) {
  return catalogFor(m, p).map((e) => {
    const refusal = refusalFor(m, p, e);
    const tool = listedTool(e);
    if (refusal === null) return tool;
    return {
      ...tool,
      description: `${e.description}\n[Refused for you: ${refusal}]`,
      _meta: { [REFUSAL_META_KEY]: refusal },
    };
  });
}

/** The `_meta` key under which tools/list carries the reason a listed tool would be refused to this caller. */
export const REFUSAL_META_KEY = "motebit/refusal";
/** A catalog entry as tools/list shows it. */
export function listedTool(e: CatalogEntry) {
  return {
    name: e.name,
    ...(e.title !== undefined && { title: e.title }),
    description: e.description,
    inputSchema: e.inputSchema,
    ...(e.outputSchema !== undefined && { outputSchema: e.outputSchema }),
    annotations: e.annotations,
    ...(e.taskSupport !== undefined && { execution: { taskSupport: e.taskSupport } }),
  };
}
