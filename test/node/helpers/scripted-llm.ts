// A scripted model for the LLM port, built on the AI SDK's own MockLanguageModelV4: each model call takes the next
// turn of the script (a text answer, or tool calls), whether the loop streams or not, and every prompt it was sent
// is kept so tests can assert what a turn could and could not see. Past the end, the last turn repeats.
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4CallOptions, LanguageModelV4Content, LanguageModelV4StreamPart } from "@ai-sdk/provider";
import type { LlmProvider } from "../../../src/ports.js";

export type ScriptTurn =
  | string
  /** `id` scripts the tool-call id, so a hostile model can reuse one; default: a fresh id per call. */
  | { tools: { name: string; input: Record<string, unknown>; id?: string }[]; text?: string }
  | { error: string }
  | { hang: true };

export const USAGE_PER_CALL = { input: 11, output: 7 };

export class ScriptedLlm implements LlmProvider {
  readonly provider = "scripted";
  readonly modelName = "scripted-test-model";
  readonly id = "scripted:scripted-test-model";
  readonly model: MockLanguageModelV4;
  readonly seen: LanguageModelV4CallOptions[] = [];
  private next = 0;
  private readonly script: ScriptTurn[];

  constructor(...script: ScriptTurn[]) {
    this.script = script.length ? script : [""];
    this.model = new MockLanguageModelV4({
      provider: "scripted",
      modelId: "scripted-test-model",
      doGenerate: async (o) => {
        const content = await this.turn(o);
        return { content, finishReason: finish(content), usage: usage(), warnings: [] };
      },
      doStream: async (o) => {
        const content = await this.turn(o);
        const parts: LanguageModelV4StreamPart[] = [{ type: "stream-start", warnings: [] }];
        for (const c of content) {
          if (c.type === "text") parts.push({ type: "text-start", id: "t" }, { type: "text-delta", id: "t", delta: c.text }, { type: "text-end", id: "t" });
          else parts.push(c as LanguageModelV4StreamPart);
        }
        parts.push({ type: "finish", finishReason: finish(content), usage: usage() });
        return { stream: new ReadableStream({ start: (ctl) => (parts.forEach((p) => ctl.enqueue(p)), ctl.close()) }) };
      },
    });
  }

  /** How many times the model was called. */
  get calls(): number {
    return this.seen.length;
  }

  private async turn(o: LanguageModelV4CallOptions): Promise<LanguageModelV4Content[]> {
    this.seen.push(o);
    const t = this.script[Math.min(this.next++, this.script.length - 1)];
    if (typeof t === "string") return [{ type: "text", text: t }];
    if ("error" in t) throw new Error(t.error);
    if ("hang" in t) {
      await new Promise((_, reject) => o.abortSignal?.addEventListener("abort", () => reject(o.abortSignal?.reason), { once: true }));
      return [];
    }
    const calls: LanguageModelV4Content[] = t.tools.map((c, k) => ({
      type: "tool-call",
      toolCallId: c.id ?? `call-${this.seen.length}-${k}`,
      toolName: c.name,
      input: JSON.stringify(c.input),
    }));
    return t.text ? [{ type: "text", text: t.text }, ...calls] : calls;
  }

  /** Everything the model was shown, as one string. */
  transcript(): string {
    return this.seen.map((o) => JSON.stringify(o.prompt)).join("\n");
  }
}

function finish(content: LanguageModelV4Content[]) {
  return { unified: content.some((c) => c.type === "tool-call") ? ("tool-calls" as const) : ("stop" as const), raw: undefined };
}

function usage() {
  return {
    inputTokens: { total: USAGE_PER_CALL.input, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
    outputTokens: { total: USAGE_PER_CALL.output, text: undefined, reasoning: undefined },
  };
}
