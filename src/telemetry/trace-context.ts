// W3C Trace Context in and out (https://www.w3.org/TR/trace-context/): the core parses `traceparent` itself, since
// @opentelemetry/api carries no propagator (the W3C one is in @opentelemetry/core, an SDK package). In: a request's
// `params._meta` (MCP 2026-07-28, SEP-414) or the HTTP header its host handed over. Out: the header value to send.
import { createTraceState, propagation, ROOT_CONTEXT, trace, TraceFlags, type Context, type SpanContext } from "@opentelemetry/api";

/** What carries trace context: a request's `_meta`, or HTTP's headers as the host read them. */
export interface TraceCarrier {
  traceparent?: unknown;
  tracestate?: unknown;
  baggage?: unknown;
}

const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = "0".repeat(32);
const ZERO_SPAN = "0".repeat(16);
/** W3C's limits: tracestate at most 512 characters is kept, baggage at most 8192. */
const MAX_TRACESTATE = 512;
const MAX_BAGGAGE = 8192;

/** A remote parent from a version-00 `traceparent` (55 characters, no all-zero ids), or null. */
export function parseTraceparent(value: unknown, tracestate?: unknown): SpanContext | null {
  if (typeof value !== "string" || value.length !== 55) return null;
  const m = TRACEPARENT.exec(value);
  if (m === null || m[1] === ZERO_TRACE || m[2] === ZERO_SPAN) return null;
  const state = typeof tracestate === "string" && tracestate.length <= MAX_TRACESTATE ? createTraceState(tracestate) : undefined;
  return { traceId: m[1], spanId: m[2], traceFlags: parseInt(m[3], 16) & TraceFlags.SAMPLED, isRemote: true, ...(state && { traceState: state }) };
}

/** The parent context a carrier names (its baggage too), or null when it names none. */
export function contextFrom(carrier: TraceCarrier | undefined): Context | null {
  const parent = carrier === undefined ? null : parseTraceparent(carrier.traceparent, carrier.tracestate);
  if (parent === null) return null;
  const ctx = trace.setSpanContext(ROOT_CONTEXT, parent);
  const entries = parseBaggage(carrier!.baggage);
  return entries === null ? ctx : propagation.setBaggage(ctx, propagation.createBaggage(entries));
}

/** What continues a trace at the next hop: an MCP request's `_meta` keys, or HTTP headers of the same names. */
export interface TraceHeaders {
  traceparent: string;
  tracestate?: string;
}

/** The `traceparent` (and `tracestate`) that continue `ctx`'s span at the next hop. */
export function traceHeaders(ctx: Context): TraceHeaders {
  const s = trace.getSpanContext(ctx)!;
  const traceparent = `00-${s.traceId}-${s.spanId}-0${(s.traceFlags & TraceFlags.SAMPLED).toString(16)}`;
  const state = s.traceState?.serialize();
  return state ? { traceparent, tracestate: state } : { traceparent };
}

/** W3C baggage `k=v;props,k2=v2` (properties dropped), percent-decoded; null when absent or unreadable. */
function parseBaggage(value: unknown): Record<string, { value: string }> | null {
  if (typeof value !== "string" || value.length === 0 || value.length > MAX_BAGGAGE) return null;
  const entries: Record<string, { value: string }> = {};
  for (const member of value.split(",")) {
    const [pair] = member.split(";");
    const eq = pair.indexOf("=");
    if (eq <= 0) continue;
    try {
      entries[decodeURIComponent(pair.slice(0, eq).trim())] = { value: decodeURIComponent(pair.slice(eq + 1).trim()) };
    } catch {
      // A malformed escape drops that member only.
    }
  }
  return Object.keys(entries).length === 0 ? null : entries;
}
