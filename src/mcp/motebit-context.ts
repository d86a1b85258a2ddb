import type { Clock, LlmProvider, RelayStatus, RelayTaskLookup } from "../ports.js";
import type { IdentityDoc, Signer } from "../protocol/index.js";
import type { Governance } from "../policy/governance.js";
import type { ToolRegistry } from "../tools/registry.js";
import type { MemoryStore } from "../memory/store.js";
import type { ReceiptLedger } from "../log/receipt-ledger.js";
import type { AuditLog } from "../policy/audit-log.js";
import type { CredentialStore } from "../credentials/credential-store.js";
import type { DispatchTokenVerifier } from "../agent/task.js";
import type { CallableTool } from "../agent/turn-context.js";
import type { Principal, Standing } from "../principal.js";
import type { TelemetryPort } from "../telemetry/port.js";
import type { TraceHeaders } from "../telemetry/trace-context.js";

export type MotebitType = "personal" | "service" | "collaborative";

/** What the motebit is and holds, fixed when it starts (the Motebit class takes these fields from here). */
export interface MotebitFacts {
  readonly motebitId: string;
  readonly publicKeyHex: string;
  readonly did: string;
  readonly deviceId: string;
  readonly type: MotebitType;
  /** The signed identity file text, when the motebit was started with one. */
  readonly identityFileText: string | null;
  readonly identityDoc: IdentityDoc | null;
  readonly governance: Governance;
  readonly signer: Signer;
  readonly clock: Clock;
  readonly registry: ToolRegistry;
  readonly memory: MemoryStore;
  readonly ledger: ReceiptLedger;
  readonly audit: AuditLog;
  readonly credentials: CredentialStore;
  readonly llm: LlmProvider | null;
  readonly taskTimeoutMs: number;
  readonly verifyDispatchToken: DispatchTokenVerifier | null;
  readonly startedAt: number;
  /** The operator's OpenTelemetry tracer and meter; null: no telemetry work at all. */
  readonly telemetry: TelemetryPort | null;
}

/** Everything a synthetic tool, resource or prompt may use. The principal is never in here: it is passed per call. */
export interface MotebitContext extends MotebitFacts {
  /** The relay loop's public status, when this host runs one (motebit://state shows it). */
  readonly relayStatus: (() => RelayStatus) | null;
  /** Reads a forwarded task's record at the relay (its required_capabilities), when this host runs a relay loop. */
  readonly relayTaskLookup: ((relayTaskId: string, trace?: TraceHeaders) => Promise<RelayTaskLookup>) | null;
  /** The caller's standing under the host's settings now (its trust may have changed since its work was accepted). */
  callerStanding(principal: Principal): Standing;
  /** What this principal may call, with risk levels, outside a call (an AI turn's context); in a call, its view's. */
  callableTools(principal: Principal): CallableTool[];
  log(line: string): void;
}
