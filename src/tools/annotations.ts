// Tool annotations that tell the truth about risk: R0 is read-only, R2 and up are destructive. A definition may
// add hints (idempotent, open world, a title) or claim more caution, never less than its risk.
import type { RiskLevel } from "../policy/risk.js";
import { riskName } from "../policy/risk.js";
import type { ToolAnnotations } from "./types.js";

const KEYS = new Set(["title", "readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]);

/** Why `declared` is not acceptable for a tool at `risk`, or null when it is. */
export function annotationsProblem(declared: unknown, risk: RiskLevel | null): string | null {
  if (declared === undefined) return null;
  if (typeof declared !== "object" || declared === null || Array.isArray(declared)) return "annotations must be an object";
  for (const [k, v] of Object.entries(declared)) {
    if (!KEYS.has(k)) return `annotations.${k} is not an MCP tool annotation`;
    if (k === "title" ? typeof v !== "string" : typeof v !== "boolean") return `annotations.${k} must be ${k === "title" ? "a string" : "true or false"}`;
  }
  const a = declared as ToolAnnotations;
  if (risk !== null && a.readOnlyHint === true && risk > 0) return `annotations.readOnlyHint is true but the risk is ${riskName(risk)}`;
  if (risk !== null && a.destructiveHint === false && risk >= 2) return `annotations.destructiveHint is false but the risk is ${riskName(risk)}`;
  return null;
}

/** What tools/list says about a tool: the declared hints with the risk's own on top. */
export function annotationsFor(risk: RiskLevel | null, declared: ToolAnnotations | undefined): ToolAnnotations {
  const out: ToolAnnotations = { ...declared };
  // No readable risk: the gate denies every call, so nothing is claimed either way.
  if (risk === null) {
    delete out.readOnlyHint;
    delete out.destructiveHint;
    return out;
  }
  out.readOnlyHint = risk === 0 && declared?.readOnlyHint !== false;
  if (out.readOnlyHint) delete out.destructiveHint;
  else out.destructiveHint = risk >= 2 || declared?.destructiveHint === true;
  return out;
}
