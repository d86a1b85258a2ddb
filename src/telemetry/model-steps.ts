// Each model call of an AI turn as a span under ours, through the AI SDK's telemetry integration hooks (v7's
// `telemetry.integrations`: the SDK calls them with each model call's start and end). The spans are made here with
// our tracer and our explicit parent, so they nest under the task's span with no context manager at all (workerd
// has none; a global one would also be needed for the SDK's own OpenTelemetry integration, @ai-sdk/otel, to find
// our span). Prompts and outputs are recorded only when the operator opted in (captureContent).
import { SpanKind, SpanStatusCode, type Span } from "@opentelemetry/api";
import type { TelemetryOptions } from "ai";
import { startChild, type TraceScope } from "./trace-scope.js";
import { traceHeaders, type TraceHeaders } from "./trace-context.js";

type Usage = { inputTokens?: number; outputTokens?: number };

export interface ModelTelemetry {
  /** The AI SDK call's options: its telemetry integration, and the trace headers sent to the provider. */
  options: { telemetry: TelemetryOptions; headers: TraceHeaders & Record<string, string> };
  /** Ends the spans of model calls that never reported their end (the turn failed or was aborted). */
  close(): void;
}

/** Model-call spans for one AI turn under `scope`; null without a scope (no telemetry work at all). */
export function modelTelemetry(scope: TraceScope | undefined): ModelTelemetry | null {
  if (scope === undefined) return null;
  const open = new Map<string, Span>();
  const capture = scope.port.captureContent;
  const telemetry: TelemetryOptions = {
    isEnabled: true,
    recordInputs: capture,
    recordOutputs: capture,
    integrations: {
      onLanguageModelCallStart(e: { callId: string; provider: string; modelId: string }) {
        const attributes = { "gen_ai.operation.name": "chat", "gen_ai.provider.name": e.provider, "gen_ai.request.model": e.modelId };
        open.set(e.callId, startChild(scope, `chat ${e.modelId}`, attributes, SpanKind.CLIENT).span);
      },
      onLanguageModelCallEnd(e: { callId: string; finishReason: string; usage: Usage }) {
        const span = open.get(e.callId);
        if (span === undefined) return;
        open.delete(e.callId);
        span.setAttributes({ "gen_ai.response.finish_reasons": [e.finishReason] });
        if (e.usage.inputTokens !== undefined) span.setAttribute("gen_ai.usage.input_tokens", e.usage.inputTokens);
        if (e.usage.outputTokens !== undefined) span.setAttribute("gen_ai.usage.output_tokens", e.usage.outputTokens);
        span.end();
      },
    },
  };
  return {
    options: { telemetry, headers: { ...traceHeaders(scope.context) } },
    close() {
      for (const span of open.values()) {
        span.setAttribute("error.type", "_OTHER");
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.end();
      }
      open.clear();
    },
  };
}
