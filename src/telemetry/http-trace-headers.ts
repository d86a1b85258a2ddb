// The W3C trace context headers of an HTTP request, read by the host-neutral app and handed to the core with the
// request (they may cross the Durable Object's RPC, so plain strings). Nothing is read when traceparent is absent.
import type { TraceCarrier } from "./trace-context.js";

/** `{ traceHeaders }` when the request sent a traceparent, else nothing to spread. */
export function traceHeadersOf(h: Headers): { traceHeaders?: TraceCarrier } {
  const traceparent = h.get("traceparent");
  if (traceparent === null) return {};
  const tracestate = h.get("tracestate");
  const baggage = h.get("baggage");
  return { traceHeaders: { traceparent, ...(tracestate !== null && { tracestate }), ...(baggage !== null && { baggage }) } };
}
