// One tool run as a span, by the GenAI conventions' execute_tool span: `execute_tool {gen_ai.tool.name}`. The
// arguments are recorded only when the operator opted in (captureContent: gen_ai.tool.call.arguments, Opt-In).
import { SpanStatusCode, type Attributes } from "@opentelemetry/api";
import { inSpan, type TraceScope } from "./trace-scope.js";

/** Runs the tool under its span; `failed` says whether what it returned is a tool error (error.type tool_error). */
export function toolTraced<T>(scope: TraceScope | undefined, tool: string, args: unknown, run: (child: TraceScope | undefined) => Promise<T>, failed: (r: T) => boolean): Promise<T> {
  if (scope === undefined) return run(undefined);
  const attributes: Attributes = { "gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": tool };
  if (scope.port.captureContent) attributes["gen_ai.tool.call.arguments"] = JSON.stringify(args ?? {});
  return inSpan(scope, `execute_tool ${tool}`, attributes, run, (r, span) => {
    if (!failed(r)) return;
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
  });
}
