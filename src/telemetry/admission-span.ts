// The gate's decision as a span: what admit() (src/policy/admission) decided for which tool, and why, with every
// refusal counted by kind. Spans record the decision's kind and text (what the caller is told anyway), never the
// call's arguments.
import { SpanStatusCode } from "@opentelemetry/api";
import { instrumentsOf } from "./instruments.js";
import { inSpanSync, startChild, type TraceScope } from "./trace-scope.js";

/** An Admission as the span reads it. */
type Decision = { outcome: string; message?: string };

const PASSES = new Set(["allow", "ask_owner"]);

/** Decides under an `admission {tool}` span; without a scope, just decides. */
export function admissionTraced<D extends Decision>(scope: TraceScope | undefined, tool: string, decide: () => D): D {
  if (scope === undefined) return decide();
  return inSpanSync(scope, `admission ${tool}`, { "gen_ai.tool.name": tool }, decide, (d, span) => {
    span.setAttribute("motebit.admission.kind", d.outcome);
    if (d.message !== undefined) span.setAttribute("motebit.admission.reason", d.message);
    if (PASSES.has(d.outcome)) return;
    span.setAttribute("motebit.refusal.reason", d.message ?? d.outcome);
    span.setStatus({ code: SpanStatusCode.ERROR, message: "refused" });
    instrumentsOf(scope.port).refusals.add(1, { "motebit.refusal.kind": d.outcome });
  });
}

/** A task's or turn's gate whose every decision is traced; the gate itself without a scope. */
export function tracedGate<D extends Decision>(scope: TraceScope | undefined, gate: (tool: string) => D): (tool: string) => D {
  return scope === undefined ? gate : (tool) => admissionTraced(scope, tool, () => gate(tool));
}

/** A refusal outside the gate (a task's tokens, a revoked grant): a `refusal` span with its reason, counted by kind. */
export function recordRefusal(scope: TraceScope | undefined, kind: string, reason: string): void {
  if (scope === undefined) return;
  const { span } = startChild(scope, "refusal", { "motebit.refusal.kind": kind, "motebit.refusal.reason": reason });
  span.setStatus({ code: SpanStatusCode.ERROR, message: "refused" });
  span.end();
  instrumentsOf(scope.port).refusals.add(1, { "motebit.refusal.kind": kind });
}
