// A call's place in its trace, passed explicitly along the call (on CallInput, like the principal), never through a
// global context manager: workerd has none by default. Absent (undefined) means the host gave no TelemetryPort, and
// then nothing here calls into OpenTelemetry: each helper's one `if` is the whole cost.
import { SpanKind, SpanStatusCode, trace, type Attributes, type Context, type Span } from "@opentelemetry/api";
import type { TelemetryPort } from "./port.js";

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
export async function inSpan<T>(
  scope: TraceScope | undefined,
  name: string,
  attributes: Attributes,
  work: (child: TraceScope | undefined) => Promise<T>,
  describe?: (result: T, span: Span) => void,
): Promise<T> {
  if (scope === undefined) return work(undefined);
  const { span, scope: child } = startChild(scope, name, attributes);
  try {
    const result = await work(child);
    describe?.(result, span);
    return result;
  } catch (e) {
    failSpan(span, e);
    throw e;
  } finally {
    span.end();
  }
}

/** The same for synchronous work. */
export function inSpanSync<T>(scope: TraceScope | undefined, name: string, attributes: Attributes, work: () => T, describe?: (result: T, span: Span) => void): T {
  if (scope === undefined) return work();
  const { span } = startChild(scope, name, attributes);
  try {
    const result = work();
    describe?.(result, span);
    return result;
  } catch (e) {
    failSpan(span, e);
    throw e;
  } finally {
    span.end();
  }
}

/** A thrown error on a span: its class as error.type, and ERROR status (the message stays out: it may echo input). */
export function failSpan(span: Span, e: unknown): void {
  const type = e instanceof Error ? e.constructor.name : "_OTHER";
  span.setAttribute("error.type", type);
  span.setStatus({ code: SpanStatusCode.ERROR, message: type });
}
