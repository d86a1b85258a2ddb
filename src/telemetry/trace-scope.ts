// A call's place in its trace, passed explicitly along the call (on CallInput, like the principal), never through a
// global context manager: workerd has none by default. Absent (undefined) means the host gave no TelemetryPort, and
// then nothing here calls into OpenTelemetry: each helper's one `if` is the whole cost.
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import type { TelemetryPort } from "./port.js";
import { traceHeaders, type TraceHeaders } from "./trace-context.js";

export interface TraceScope {
  readonly port: TelemetryPort;
  /** The span this scope's children hang under. */
  readonly context: Context;
}

/** A child span under `scope`, and the scope its own children take. */
export function startChild(scope: TraceScope, name: string, attributes?: Attributes, kind: SpanKind = SpanKind.INTERNAL): { span: Span; scope: TraceScope } {
  const span = scope.port.tracer.startSpan(name, { kind, attributes }, scope.context);
  return { span, scope: { port: scope.port, context: trace.setSpan(scope.context, span) } };
}

/** Runs `work` under a child span (ended when it settles; a throw is recorded); without a scope, just runs it. */
export function inSpan<T>(
  scope: TraceScope | undefined,
  name: string,
  attributes: Attributes,
  work: (child: TraceScope | undefined) => Promise<T>,
  describe?: (result: T, span: Span) => void,
): Promise<T> {
  if (scope === undefined) return work(undefined);
  const { span, scope: child } = startChild(scope, name, attributes);
  return settled(() => work(child)).then((r) => ended(span, r, describe), (e: unknown) => failed(span, e));
}

/** The same for synchronous work. */
export function inSpanSync<T>(scope: TraceScope | undefined, name: string, attributes: Attributes, work: () => T, describe?: (result: T, span: Span) => void): T {
  if (scope === undefined) return work();
  const { span } = startChild(scope, name, attributes);
  let result: T;
  try {
    result = work();
  } catch (e) {
    return failed(span, e);
  }
  return ended(span, result, describe);
}

/** `work`'s promise, with a synchronous throw turned into a rejection. */
function settled<T>(work: () => Promise<T>): Promise<T> {
  try {
    return work();
  } catch (e) {
    return Promise.reject(e);
  }
}

function ended<T>(span: Span, result: T, describe: ((result: T, span: Span) => void) | undefined): T {
  describe?.(result, span);
  span.end();
  return result;
}

function failed(span: Span, e: unknown): never {
  failSpan(span, e);
  span.end();
  throw e;
}

/** A thrown error on a span: its class as error.type, and ERROR status (the message stays out: it may echo input). */
export function failSpan(span: Span, e: unknown): void {
  const type = e instanceof Error ? e.constructor.name : "_OTHER";
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}

/** What continues the scope's trace at the next hop (an HTTP request's headers), or undefined without a scope. */
export function headersOf(scope: TraceScope | undefined): TraceHeaders | undefined {
  return scope === undefined ? undefined : traceHeaders(scope.context);
}
