import type { McpTaskSupport } from "../stateless/tasks-extension.js";
import type { RiskLevel } from "../../policy/risk.js";
import type { MotebitContext } from "../motebit-context.js";
import type { CallContext } from "../call-context.js";
import type { ToolOutcome } from "../tool-outcome.js";
import type { Principal } from "../../principal.js";
import type { Audience } from "../../policy/admission/audience.js";
import type { OAuthScope } from "../../policy/admission/oauth-scopes.js";

/** A tool the motebit registers itself (docs/protocol.md §7), as opposed to a served tool from a tools module. */
export interface SyntheticTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
  risk: RiskLevel;
  /** Runs as an MCP task for a client that negotiated the tasks extension. */
  taskSupport?: McpTaskSupport;
  /**
   * Who sees it at all (owner: stdio; peer: every HTTP caller). Hidden is absent: not listed, and a call of it is
   * an unknown tool. Both tools/list and tools/call read this, through the call's view (caller-view.ts).
   */
  audience: Audience;
  /** The OAuth scope an OAuth client needs to call it (src/policy/admission/oauth-scopes.ts). */
  oauthScope: OAuthScope;
  /** Whether this motebit offers the tool at all (its backend exists, its profile requires it). */
  offered(m: MotebitContext): boolean;
  /**
   * The text this tool refuses this caller with, whatever the arguments (null or absent: it runs). Declared once:
   * the listing shows it and tools/call refuses with it before run() is reached.
   */
  refusal?(m: MotebitContext, p: Principal): string | null;
  /** Signs a receipt for every outcome: a call that may not run now (lost standing, attempt cap) reaches run(). */
  signsEveryOutcome?: true;
  run(args: Record<string, unknown>, m: MotebitContext, c: CallContext): Promise<ToolOutcome>;
}

export const always = (): boolean => true;
export const serviceOnly = (m: MotebitContext): boolean => m.type === "service";
