// A memory recall as a span, by the GenAI conventions' search_memory operation: how many memories it returned, never
// their content or the query (both are the owner's memory, not the operator's).
import { inSpan, type TraceScope } from "./trace-scope.js";

export function recallTraced<H extends unknown[]>(scope: TraceScope | undefined, recall: () => Promise<H>): Promise<H> {
  if (scope === undefined) return recall();
  return inSpan(scope, "search_memory", { "gen_ai.operation.name": "search_memory" }, recall, (hits, span) => span.setAttribute("motebit.memory.hits", hits.length));
}
