import type { TaskSupport } from "../stateless/tasks-extension.js";
import type { RiskLevel } from "../../policy/risk.js";
import type { CallContext, MotebitContext } from "../context.js";
import type { ToolOutcome } from "../tool-outcome.js";
import type { Principal } from "../../principal.js";

/** A tool the motebit registers itself (docs/protocol.md §7), as opposed to a served tool from a tools module. */
export interface SyntheticTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  risk: RiskLevel;
  /** Runs as an MCP task for a client that negotiated the tasks extension. */
  taskSupport?: TaskSupport;
  /** Served to the owner (stdio) only, like a localOnly served tool. */
  ownerOnly?: boolean;
  /** Whether this motebit offers the tool at all (its backend exists, its profile requires it). */
  offered(m: MotebitContext): boolean;
  /** The text this tool refuses this caller with, whatever the arguments (null or absent: it runs). */
  refusal?(m: MotebitContext, p: Principal): string | null;
  /** Signs a receipt for every outcome: a call that may not run now (lost standing, attempt cap) reaches run(). */
  signsEveryOutcome?: true;
  run(args: Record<string, unknown>, m: MotebitContext, c: CallContext): Promise<ToolOutcome>;
}

export const always = (): boolean => true;
export const serviceOnly = (m: MotebitContext): boolean => m.type === "service";
