// The bounded AI loop shared by motebit_task (AI mode) and motebit_query: the model reads the prompt, picks
// served tools, chains them, and answers. At most MAX_TOOL_STEPS model responses may call tools (parallel calls
// in one response are one step); after the last of them the model is asked once more with tools switched off.
// Every call passes the gate again at call time; a refusal goes back to the model as a tool error with the
// gate's exact text and never runs. Tool output reaches the model wrapped as external data.
import { generateText, jsonSchema, ToolChoiceViolationError, stepCountIs, streamText, tool, wrapLanguageModel, type ModelMessage, type ToolSet } from "ai";
import type { LlmProvider } from "../ports.js";
import type { Admission } from "../policy/admission/admit.js";
import { clientWithTrace, invokeTool, resultText } from "../tools/invoke.js";
import type { ServedTool } from "../tools/types.js";
import { validateArgs } from "../tools/validate-args.js";
import type { AuditOutcome } from "../policy/audit-log.js";
import { asExternalData, EXTERNAL_DATA_RULE } from "./external-data.js";
import { reportModelFailure } from "./provider-failure.js";
import { modelTelemetry, type ModelTelemetry } from "../telemetry/model-steps.js";
import { toolTraced } from "../telemetry/tool-span.js";
import type { TraceScope } from "../telemetry/trace-scope.js";

/** The SDK sends a tool error to the model as error.toString(); this one says exactly its message, no "Error: " prefix. */
class ToolCallError extends Error {
  override toString(): string {
    return this.message;
  }
}

export const MAX_TOOL_STEPS = 10;
export const STEP_LIMIT_ERROR = `Error: tool step limit (${MAX_TOOL_STEPS}) reached`;

export interface AiLoopInput {
  llm: LlmProvider;
  /** Who the motebit is and what this turn may see; the loop appends the external-data rule. */
  system: string;
  prompt: string;
  /** Every served tool this principal can see. Calls to any of them are parsed, then gated. */
  tools: ServedTool[];
  /** The names offered to the model: the tools the gate allows this principal now. */
  offered: string[];
  /** The call-time gate (governance, caller trust, delegation scope). */
  gate: (toolName: string) => Admission;
  /** The turn's one budget and cancellation: aborting it aborts the model call and every tool in flight. */
  signal: AbortSignal;
  /** Each tool call the model made, as the audit log records it. */
  onToolCall: (e: { tool: string; args: unknown; outcome: AuditOutcome }) => void;
  /** Stream the model's responses instead of waiting for each whole response. */
  stream?: boolean;
  /** Filled in as the turn goes, so a turn that fails half-way still reports what it used. */
  meter: LoopMeter;
  /** The host's log: a failed model call is reported there once, with provider, URL and status. */
  log: (line: string) => void;
  /** The turn's span, when telemetry is on: each model call and tool run is a span under it. */
  trace?: TraceScope;
}

export interface LoopMeter {
  inputTokens: number;
  outputTokens: number;
  /** Calls refused: by the gate, as not offered this turn, for a reused call id, or naming no tool this caller can see. */
  denials: number;
  /** Tools that ran (ok or not), in the order they started; refused calls excluded. */
  started: string[];
}

export const newMeter = (): LoopMeter => ({ inputTokens: 0, outputTokens: 0, denials: 0, started: [] });

export interface AiLoopResult {
  /** "step_limit": the tool steps ran out and the model gave no text when asked without tools. */
  status: "completed" | "step_limit";
  text: string;
  /** Every tool that ran (ok or not), in the order it started: the meter's executed-call record, nothing else. */
  toolsUsed: string[];
  /** Model responses, the no-tools one included. */
  modelCalls: number;
}

/**
 * Rejects with the provider's failure (logged, and described with provider, URL and status) or the signal's reason;
 * the caller turns either into its own answer.
 */
export async function runAiLoop(i: AiLoopInput): Promise<AiLoopResult> {
  const traced = modelTelemetry(i.trace);
  try {
    return await loop(i, traced);
  } catch (e) {
    throw reportModelFailure(e, i.llm, i.signal, i.log);
  } finally {
    traced?.close();
  }
}

async function loop(i: AiLoopInput, traced: ModelTelemetry | null): Promise<AiLoopResult> {
  const meter = i.meter;
  let toolsOff = false;
  // Every tool-call id the model has used this turn, run or not: a reused id never runs anything.
  const seenIds = new Set<string>();
  const offered = new Set(i.offered);
  const byName = new Map(i.tools.map((t) => [t.definition.name, t]));
  const refuse = (name: string, args: unknown, outcome: AuditOutcome, message: string): never => {
    meter.denials++;
    i.onToolCall({ tool: name, args, outcome });
    throw new ToolCallError(message);
  };
  const tools: ToolSet = {};
  for (const t of i.tools) {
    const name = t.definition.name;
    tools[name] = tool({
      description: t.definition.description,
      inputSchema: jsonSchema(t.definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: async (args: unknown, { toolCallId, abortSignal }) => {
        // The no-tools request offers none; a model that calls one anyway gets nothing run.
        if (toolsOff) throw new ToolCallError(STEP_LIMIT_ERROR);
        const reused = seenIds.has(toolCallId);
        seenIds.add(toolCallId);
        if (reused) refuse(name, args, "invalid", `Error: tool call id ${JSON.stringify(toolCallId)} was already used in this turn; the call did not run`);
        const decision = i.gate(name);
        if (decision.outcome !== "allow") refuse(name, args, decision.outcome === "deny" ? "denied" : "approval_required", decision.message);
        // What runs is a subset of what the model was offered this turn, whatever the gate would allow.
        if (!offered.has(name)) refuse(name, args, "denied", `Policy denied: tool "${name}" was not offered in this turn`);
        const invalid = validateArgs(t.definition.inputSchema, args, name);
        if (invalid !== null) {
          i.onToolCall({ tool: name, args, outcome: "invalid" });
          throw new ToolCallError(invalid);
        }
        // The executed-call record: the receipt's tools_used is this list and nothing else.
        meter.started.push(name);
        const run = (t: TraceScope | undefined) => invokeTool(byName.get(name)!, args as Record<string, unknown>, abortSignal ?? i.signal, clientWithTrace(t));
        const r = await toolTraced(i.trace, name, args, run, (x) => !x.ok);
        i.onToolCall({ tool: name, args, outcome: r.ok ? "allowed" : "error" });
        if (!r.ok) throw new ToolCallError(asExternalData(name, `Error: ${r.error}`));
        return asExternalData(name, resultText(r));
      },
    });
  }

  // The SDK knows every visible tool (so a call to one the model was not offered is parsed, gated and refused with
  // the gate's words); the provider is sent only the offered ones, in the order offered (first = the one asked for).
  const rank = new Map(i.offered.map((name, k) => [name, k]));
  const model = wrapLanguageModel({
    model: i.llm.model,
    middleware: {
      specificationVersion: "v4",
      transformParams: async ({ params }) => {
        // Anthropic honours tool_choice "none" (and wants the definitions beside its own tool_use history);
        // Ollama's API has no tool_choice, so there the no-tools request carries no tools at all.
        const none = params.toolChoice?.type === "none" && i.llm.provider !== "anthropic";
        const tools = none ? [] : params.tools?.filter((t) => rank.has(t.name)).sort((a, b) => rank.get(a.name)! - rank.get(b.name)!);
        return tools?.length ? { ...params, tools } : { ...params, tools: undefined, toolChoice: undefined };
      },
    },
  });
  const base = {
    model,
    instructions: `${i.system}\n\n${EXTERNAL_DATA_RULE}`,
    tools,
    abortSignal: i.signal,
    // With telemetry on: each model call's span under the turn's, and its trace context to the provider.
    ...traced?.options,
    // A name the model invents (or a tool this caller cannot see) is refused like any other call.
    repairToolCall: async () => {
      meter.denials++;
      return null;
    },
    onStepEnd: ({ usage }: { usage: { inputTokens?: number; outputTokens?: number } }) => {
      meter.inputTokens += usage.inputTokens ?? 0;
      meter.outputTokens += usage.outputTokens ?? 0;
    },
  };
  const messages: ModelMessage[] = [{ role: "user", content: i.prompt }];
  const first = await callModel(i.stream === true, {
    ...base,
    messages,
    stopWhen: stepCountIs(MAX_TOOL_STEPS),
  });
  let modelCalls = first.steps.length;
  let text = first.text;
  let status: AiLoopResult["status"] = "completed";
  if (first.lastStepCalledTools) {
    toolsOff = true;
    modelCalls++;
    try {
      const last = await callModel(i.stream === true, {
        ...base,
        messages: [...messages, ...first.responseMessages],
        toolChoice: "none" as const,
        stopWhen: stepCountIs(1),
      });
      text = last.text;
    } catch (e) {
      // A model that answers the no-tools request with another tool call has given no text.
      if (!ToolChoiceViolationError.isInstance(e)) throw e;
      text = "";
    }
    if (text.trim() === "") status = "step_limit";
  }
  return { status, text: text.trim(), toolsUsed: [...meter.started], modelCalls };
}

interface ModelOutcome {
  text: string;
  steps: { toolCalls: unknown[] }[];
  responseMessages: ModelMessage[];
  lastStepCalledTools: boolean;
}

type CallOptions = Parameters<typeof generateText>[0];

async function callModel(stream: boolean, options: CallOptions): Promise<ModelOutcome> {
  let steps: ModelOutcome["steps"];
  let text: string;
  let responseMessages: ModelMessage[];
  if (stream) {
    let failure: unknown = null;
    const r = streamText({ ...(options as Parameters<typeof streamText>[0]), onError: ({ error }) => void (failure ??= error) });
    await r.consumeStream();
    if (failure !== null) throw failure;
    options.abortSignal?.throwIfAborted();
    [steps, text, responseMessages] = await Promise.all([r.steps, r.text, r.response.then((x) => x.messages)]);
  } else {
    const r = await generateText(options);
    [steps, text, responseMessages] = [r.steps, r.text, r.response.messages];
  }
  const last = steps[steps.length - 1];
  return {
    text,
    steps,
    responseMessages,
    lastStepCalledTools: last !== undefined && last.toolCalls.length > 0,
  };
}
