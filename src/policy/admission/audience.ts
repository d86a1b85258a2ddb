// Who a tool, resource or prompt is for: the owner (stdio), peers (every HTTP caller), or both. Every listing and
// every call asks this one rule (admit.ts puts it first), so what a principal is shown is exactly what it may reach.
import type { Principal } from "../../principal.js";

export type Audience = "owner" | "peer" | "both";

/** What a principal is, for what it may see: its kind. */
export type Viewer = Principal["kind"];

export function admits(audience: Audience, viewer: Viewer): boolean {
  return audience === "both" || audience === viewer;
}

/** A tools module's declaration: `localOnly` is the owner's alone; anything else is for both. */
export function servedAudience(d: { localOnly?: boolean }): Audience {
  return d.localOnly === true ? "owner" : "both";
}
