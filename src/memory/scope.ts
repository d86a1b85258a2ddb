import type { Principal } from "../principal.js";
import type { Sensitivity } from "./sensitivity.js";

/** The memory scope a principal writes to and reads from: the owner's graph, or one peer's own corner of it. */
export function memoryScopeOf(p: Principal): string {
  return p.kind === "owner" ? "owner" : `peer:${p.callerId}`;
}

/** Who to credit a peer-written memory to; undefined for the owner. */
export function peerSourceOf(p: Principal): string | undefined {
  return p.kind === "peer" ? p.callerId : undefined;
}

/** Even the owner's recall leaves these out: they are too sensitive to surface through an MCP host. */
export const OWNER_RECALL_EXCLUDED: Sensitivity[] = ["medical", "financial", "secret"];

/** The rows that may reach an MCP host: none of the sensitivities recall leaves out. */
export function shareableWithHost<T extends { sensitivity: Sensitivity }>(rows: T[]): T[] {
  return rows.filter((r) => !OWNER_RECALL_EXCLUDED.includes(r.sensitivity));
}
