// Where a host keeps its MCP tasks (rows that outlive the request and the process): what the session engine asks of it.
import type { Principal } from "../../principal.js";
import type { StatelessEnvelope } from "../stateless/revision.js";
import type { AdmitCall } from "../../agent/task.js";

/** A synchronous call as its host keeps it: `admit` persists it once admitted; `end` when the request is over. */
export interface KeptCall {
  admit: AdmitCall;
  end(): void;
}

export interface McpTaskHost {
  /** Creates the task durably and starts it; its handle. Throws RpcError when the caller or the host is at its limit. */
  create(principal: Principal, envelope: StatelessEnvelope, tool: string, args: unknown): Promise<Record<string, unknown>>;
  /** A synchronous tools/call of `tool` by `principal`, kept from its admission until its receipt commits. */
  keepCall(principal: Principal, tool: string, args: unknown): KeptCall;
  /** tasks/get, tasks/update, tasks/cancel for `asker`; throws RpcError. */
  handle(method: string, params: Record<string, unknown> | undefined, asker: Principal): Record<string, unknown>;
  /**
   * The host is shutting down gracefully: its runs stop without writing anything and let go of their leases, so the
   * next start resumes them at once. Resolves once they have, or after `graceMs` (a run still going keeps its lease,
   * which lapses as after a crash).
   */
  handOver(graceMs: number): Promise<void>;
}
