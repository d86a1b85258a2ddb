// The metrics instruments, made once per port: the MCP semantic conventions' two duration histograms, and the
// counters an operator alerts on. Attributes are low-cardinality by design: kinds and statuses, never a caller,
// a message or an argument.
import type { Attributes, Counter, Histogram, UpDownCounter } from "@opentelemetry/api";
import type { TelemetryPort } from "./port.js";

/** The conventions' ExplicitBucketBoundaries for both MCP duration histograms, in seconds. */
export const MCP_DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];

export interface Instruments {
  /** mcp.server.operation.duration: a request or notification, received to answered. */
  operationDuration: Histogram;
  /** mcp.server.session.duration: an MCP session, opened to closed. */
  sessionDuration: Histogram;
  /** Refusals by kind (deny, approval, hidden, task, grant_revoked). */
  refusals: Counter;
  /** Requests the caller's rate bucket refused. */
  rateLimited: Counter;
  /** Receipts signed, by status (completed, failed, denied). */
  receiptsSigned: Counter;
  /** MCP tasks running now. */
  tasksRunning: UpDownCounter;
  /** MCP tasks resumed after their host restarted. */
  tasksResumed: Counter;
  /** OAuth grants made. */
  oauthGrants: Counter;
  /** OAuth grants revoked. */
  oauthRevocations: Counter;
}

const made = new WeakMap<TelemetryPort, Instruments>();

export function instrumentsOf(port: TelemetryPort): Instruments {
  let i = made.get(port);
  if (i === undefined) made.set(port, (i = create(port)));
  return i;
}

/** Adds `n` to the instrument `pick` names; nothing without a port (no telemetry work at all). */
export function count(port: TelemetryPort | null | undefined, pick: (i: Instruments) => Counter | UpDownCounter, n = 1, attributes?: Attributes): void {
  if (port == null || n === 0) return;
  pick(instrumentsOf(port)).add(n, attributes);
}

function create({ meter }: TelemetryPort): Instruments {
  const duration = (name: string, description: string) =>
    meter.createHistogram(name, { unit: "s", description, advice: { explicitBucketBoundaries: MCP_DURATION_BUCKETS } });
  return {
    operationDuration: duration("mcp.server.operation.duration", "MCP request or notification duration as observed on the receiver from the time it was received until the result or ack is sent."),
    sessionDuration: duration("mcp.server.session.duration", "The duration of the MCP session as observed on the MCP server."),
    refusals: meter.createCounter("motebit.refusals", { unit: "{refusal}", description: "Calls refused, by kind." }),
    rateLimited: meter.createCounter("motebit.rate_limited", { unit: "{request}", description: "Requests refused by the caller's rate bucket." }),
    receiptsSigned: meter.createCounter("motebit.receipts.signed", { unit: "{receipt}", description: "Execution receipts signed, by status." }),
    tasksRunning: meter.createUpDownCounter("motebit.tasks.running", { unit: "{task}", description: "MCP tasks running now." }),
    tasksResumed: meter.createCounter("motebit.tasks.resumed", { unit: "{task}", description: "MCP tasks resumed after a restart." }),
    oauthGrants: meter.createCounter("motebit.oauth.grants", { unit: "{grant}", description: "OAuth grants made." }),
    oauthRevocations: meter.createCounter("motebit.oauth.revocations", { unit: "{grant}", description: "OAuth grants revoked." }),
  };
}
