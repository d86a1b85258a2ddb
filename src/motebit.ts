// The motebit itself: one identity, its state over a SQL port, and the MCP surface it serves to a principal.
import type { Clock, Embedder, LlmProvider, RelayStatus, RelayTaskLookup, SqlPort, VectorIndex } from "./ports.js";
import type { Signer } from "./protocol/index.js";
import { parseIdentityFile, publicKeyToDidKey } from "./protocol/index.js";
import { DEFAULT_SERVICE_GOVERNANCE, governanceFromIdentity } from "./policy/governance.js";
import { ToolRegistry } from "./tools/registry.js";
import { MemoryStore } from "./memory/store.js";
import { SemanticEmbedder } from "./memory/embedder-semantic.js";
import { ReceiptLedger } from "./log/receipt-ledger.js";
import { AuditLog } from "./policy/audit-log.js";
import { CredentialStore } from "./credentials/credential-store.js";
import type { DispatchTokenVerifier } from "./agent/task.js";
import type { MotebitContext, MotebitFacts } from "./mcp/motebit-context.js";
import { callableTools } from "./mcp/catalog.js";
import { dispatchClassified } from "./mcp/dispatcher.js";
import type { MessageContext, MessageHandler } from "./mcp/engine/message-handler.js";
import { taskTimeoutFor } from "./settings/ai.js";
import type { JsonRpcResponse, PostedMessage } from "./mcp/jsonrpc.js";
import { UNCHANGED_STANDING, type CallerStanding, type Principal } from "./principal.js";
import { NO_CHANNEL } from "./mcp/client-channel.js";
import { newSessionState } from "./mcp/session.js";
import { SESSION_REQUEST } from "./mcp/call-state.js";
import type { TelemetryPort } from "./telemetry/port.js";
import { serveTraced } from "./telemetry/server-span.js";
import type { TraceScope } from "./telemetry/trace-scope.js";
import type { TraceHeaders } from "./telemetry/trace-context.js";

export interface MotebitOptions {
  sql: SqlPort;
  clock: Clock;
  signer: Signer;
  motebitId: string;
  deviceId: string;
  /** A signed motebit.md the host has already verified against the signer's key. */
  identityFileText?: string | null;
  tools?: ToolRegistry;
  embedder?: Embedder;
  /** "embedded" (default) keeps vectors beside the rows; a VectorIndex (Vectorize) takes over search. */
  index?: VectorIndex | "embedded";
  llm?: LlmProvider | null;
  verifyDispatchToken?: DispatchTokenVerifier | null;
  /** Re-reads a stored principal's standing from the host's settings; default: unchanged. */
  callerStanding?: CallerStanding;
  /** MOTEBIT_TASK_TIMEOUT_MS as configured; unset (null): the mode's default (settings/ai.ts taskTimeoutFor). */
  taskTimeoutMs?: number | null;
  log?: (line: string) => void;
  /** OpenTelemetry, when the operator configured an exporter (src/telemetry/port.ts); absent: none. */
  telemetry?: TelemetryPort | null;
}

// The class takes its fixed fields from MotebitFacts, declared once in mcp/motebit-context.ts; motebitFacts sets them all.
export interface Motebit extends MotebitFacts {}

export class Motebit implements MotebitContext, MessageHandler {
  /** Set by a host that runs the relay loop. */
  relayStatus: (() => RelayStatus) | null = null;
  /** Set by a host that runs the relay loop: reads a forwarded task's record at the relay. */
  relayTaskLookup: ((relayTaskId: string, trace?: TraceHeaders) => Promise<RelayTaskLookup>) | null = null;
  private readonly logFn: (line: string) => void;
  private readonly standing: CallerStanding;

  private constructor(o: MotebitOptions) {
    Object.assign(this, motebitFacts(o));
    this.standing = o.callerStanding ?? UNCHANGED_STANDING;
    this.logFn = o.log ?? (() => {});
  }

  static async create(o: MotebitOptions): Promise<Motebit> {
    const m = new Motebit(o);
    m.memory.migrate();
    m.ledger.migrate();
    m.audit.migrate();
    m.credentials.migrate();
    return m;
  }

  callableTools(p: Principal) {
    return callableTools(this, p);
  }

  callerStanding(p: Principal) {
    return this.standing(p);
  }

  log(line: string): void {
    this.logFn(line);
  }

  /**
   * One JSON-RPC message its host has classified (src/mcp/engine/classify.ts), for one principal. The host decides
   * who the principal is; nothing here remembers it. It also passes the way back to the client and the session's state.
   */
  handleClassified(message: PostedMessage, ctx: RpcContext): Promise<JsonRpcResponse | null> {
    if (this.telemetry === null) return dispatchClassified(this, callContext(ctx), message);
    const served = { principal: ctx.principal, transport: ctx.transport, statelessVersion: (ctx.call ?? SESSION_REQUEST).statelessVersion };
    return serveTraced(this.telemetry, message, served, (trace) => dispatchClassified(this, callContext(ctx, trace), message));
  }
}

type RpcContext = Partial<MessageContext> & { principal: Principal };

function callContext(ctx: RpcContext, trace?: TraceScope) {
  return {
    principal: ctx.principal,
    signal: ctx.signal ?? new AbortController().signal,
    channel: ctx.channel ?? NO_CHANNEL,
    session: ctx.session ?? newSessionState(),
    call: ctx.call ?? SESSION_REQUEST,
    ...(ctx.admit !== undefined && { admit: ctx.admit }),
    ...(trace !== undefined && { trace }),
  };
}

function motebitFacts(o: MotebitOptions): MotebitFacts {
  const publicKeyHex = o.signer.publicKeyHex;
  const identityFileText = o.identityFileText ?? null;
  const identityDoc = identityFileText === null ? null : parseIdentityFile(identityFileText).doc;
  const llm = o.llm ?? null;
  return {
    motebitId: o.motebitId,
    signer: o.signer,
    publicKeyHex,
    did: publicKeyToDidKey(publicKeyHex),
    deviceId: o.deviceId,
    identityFileText,
    identityDoc,
    // No identity file: a service motebit with the edge's default bands, so a fresh deployment works end to end.
    type: identityDoc?.type ?? (identityDoc ? "personal" : "service"),
    governance: identityDoc ? governanceFromIdentity(identityDoc.governance) : DEFAULT_SERVICE_GOVERNANCE,
    clock: o.clock,
    registry: o.tools ?? ToolRegistry.fromModule([]),
    memory: new MemoryStore({
      sql: o.sql,
      embedder: o.embedder ?? new SemanticEmbedder(),
      index: o.index ?? "embedded",
      clock: o.clock,
      retentionDays: identityDoc?.privacy.retention_days,
      halfLifeDays: identityDoc?.memory.half_life_days,
    }),
    ledger: new ReceiptLedger(o.sql),
    audit: new AuditLog(o.sql),
    credentials: new CredentialStore(o.sql),
    llm,
    taskTimeoutMs: taskTimeoutFor(o.taskTimeoutMs, llm !== null),
    verifyDispatchToken: o.verifyDispatchToken ?? null,
    startedAt: o.clock.now(),
    telemetry: o.telemetry ?? null,
  };
}
