import type { CallableTool } from "../agent/turn-context.js";
import type { MotebitContext } from "./motebit-context.js";
import type { SyntheticTool } from "./synthetic/index.js";
import { SYNTHETIC_TOOLS } from "./synthetic/index.js";
import type { ServedTool, ToolAnnotations } from "../tools/types.js";
import { annotationsFor } from "../tools/annotations.js";
import type { RiskLevel } from "../policy/risk.js";
import { riskName } from "../policy/risk.js";
import { admit, refusalOf, type Admission, type AdmissionAsk, type Refusal } from "../policy/admission/admit.js";
import type { Principal } from "../principal.js";
import { isMcpTaskSupport, type McpTaskSupport } from "./stateless/tasks-extension.js";
import { admits, servedAudience, type Audience, type Viewer } from "../policy/admission/audience.js";
import type { OAuthScope } from "../policy/admission/oauth-scopes.js";

export interface CatalogEntry {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  title?: string;
  outputSchema?: Record<string, unknown>;
  annotations: ToolAnnotations;
  /** Set when the tool may run as an MCP task (tasks extension). */
  taskSupport?: McpTaskSupport;
  /** null for a served tool that declared no usable risk: admission denies it. */
  risk: RiskLevel | null;
  audience: Audience;
  /** The OAuth scope a call of it needs (admit.ts). */
  oauthScope: OAuthScope;
  tool: { kind: "synthetic"; impl: SyntheticTool } | { kind: "served"; impl: ServedTool };
}

/** One viewer's tools: in listing order, and by name. */
export interface Catalog {
  readonly entries: readonly CatalogEntry[];
  readonly byName: ReadonlyMap<string, CatalogEntry>;
}

/** A motebit's catalogs, one per viewer, as of one registry generation. */
interface CachedCatalogs {
  generation: number;
  byKind: Map<Viewer, Catalog>;
}

const cache = new WeakMap<MotebitContext, CachedCatalogs>();

/**
 * Every tool a viewer (owner or peer) can see, built once per viewer and kept until the registry changes: what a
 * principal sees depends only on its kind, the motebit's fixed type and the registry's tools. The entries are
 * shared between calls: read them, never change them. A call reaches them through its view (caller-view.ts).
 */
export function catalogFor(m: MotebitContext, viewer: Viewer): Catalog {
  let c = cache.get(m);
  if (c === undefined || c.generation !== m.registry.generation) {
    c = { generation: m.registry.generation, byKind: new Map() };
    cache.set(m, c);
  }
  let built = c.byKind.get(viewer);
  if (built === undefined) {
    const entries = buildCatalog(m, viewer);
    const byName = new Map<string, CatalogEntry>();
    // The first entry of a name wins, as a search of the list would find it.
    for (const e of entries) if (!byName.has(e.name)) byName.set(e.name, e);
    built = { entries, byName };
    c.byKind.set(viewer, built);
  }
  return built;
}

/** The synthetic tools this motebit offers to this viewer, then the served tools it may see (never localOnly to a peer). */
function buildCatalog(m: MotebitContext, viewer: Viewer): CatalogEntry[] {
  const entries: CatalogEntry[] = SYNTHETIC_TOOLS.filter((t) => t.offered(m) && admits(t.audience, viewer)).map((t) => ({
    name: t.name,
    description: t.description,
    inputSchema: t.inputSchema,
    annotations: annotationsFor(t.risk, undefined),
    ...(t.taskSupport !== undefined && { taskSupport: t.taskSupport }),
    risk: t.risk,
    audience: t.audience,
    oauthScope: t.oauthScope,
    tool: { kind: "synthetic", impl: t },
  }));
  for (const s of m.registry.list(viewer)) {
    const risk = m.registry.riskOf(s.definition.name);
    entries.push({
      name: s.definition.name,
      description: s.definition.description,
      inputSchema: s.definition.inputSchema,
      ...(s.definition.title !== undefined && { title: s.definition.title }),
      ...(s.definition.outputSchema !== undefined && { outputSchema: s.definition.outputSchema }),
      annotations: annotationsFor(risk, s.definition.annotations),
      ...(isMcpTaskSupport(s.definition.execution?.taskSupport) && { taskSupport: s.definition.execution.taskSupport }),
      risk,
      audience: servedAudience(s.definition),
      oauthScope: "motebit:tools",
      tool: { kind: "served", impl: s },
    });
  }
  return entries;
}

export type { Refusal };

/** What admission says of this entry for this principal in an MCP request; `call` is what the request adds (caller-view.ts). */
export function admissionOf(m: MotebitContext, p: Principal, e: CatalogEntry, call: Pick<AdmissionAsk, "stop" | "concluding" | "ownerCanBeAsked"> = {}): Admission {
  const impl = e.tool.kind === "synthetic" ? e.tool.impl : undefined;
  const declared = impl?.refusal;
  const tool = {
    name: e.name,
    risk: e.risk,
    audience: e.audience,
    oauthScope: e.oauthScope,
    signsEveryOutcome: impl?.signsEveryOutcome === true,
    ...(declared !== undefined && { declaredRefusal: () => declared(m, p) }),
  };
  return admit({ moment: "request", principal: p, tool, governance: m.governance, ...call });
}

/** Why a call of this tool would be refused to this principal outside any call (a listing); null: it would run. */
export function toolRefusal(m: MotebitContext, p: Principal, e: CatalogEntry): Refusal | null {
  return refusalOf(admissionOf(m, p, e));
}

/** The motebit_tools rows of the entries that would run. */
export function callableRows(entries: readonly CatalogEntry[], refusal: (e: CatalogEntry) => Refusal | null): CallableTool[] {
  return entries
    .filter((e) => refusal(e) === null)
    // A null risk is always refused by admission, so every entry here has a level.
    .map((e) => ({ name: e.name, description: e.description, risk: e.risk as RiskLevel, risk_name: riskName(e.risk as RiskLevel) }));
}

/** What this principal may call without a refusal, outside any call (an AI turn's context reads it). */
export function callableTools(m: MotebitContext, p: Principal): CallableTool[] {
  return callableRows(catalogFor(m, p.kind).entries, (e) => toolRefusal(m, p, e));
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

/**
 * The tools/list answer: every tool this caller can see, so profile conformance holds (a service motebit lists
 * motebit_task even to a caller who may not run it). A tool this caller would be refused says so, with the reason
 * tools/call would give, in its description (what a model reads) and in `_meta` (what code reads).
 */
export function toolsList(entries: readonly CatalogEntry[], refusal: (e: CatalogEntry) => Refusal | null) {
  return entries.map((e) => {
    const r = refusal(e);
    const tool = listedTool(e);
    if (r === null) return tool;
    return { ...tool, description: `${e.description}\n[Refused for you: ${r.message}]`, _meta: { [REFUSAL_META_KEY]: r.message } };
  });
}
