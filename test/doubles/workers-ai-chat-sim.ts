// An in-memory Workers AI binding for text generation with function calling, in the shapes the AI binding uses for
// @cf/meta/llama-3.3-70b-instruct-fp8-fast: run(model, {messages, tools?, stream?}) answers
// {response, tool_calls: [{name, arguments}], usage: {prompt_tokens, completion_tokens}}, or with stream: true a
// ReadableStream of server-sent events ({"response": delta} chunks, a tool_calls chunk, usage, then [DONE]).
// Each call takes the next turn of a script. Embedding calls go to SimWorkersAi. Plain TypeScript: it runs inside
// workerd (the edge tests pass it to the Durable Object as env.AI) and in Node alike.
import { SimWorkersAi, SIM_MODEL } from "./workers-ai-sim.js";

export type ChatTurn = string | { tools: { name: string; input: Record<string, unknown> }[] };

export interface ChatCall {
  model: string;
  messages: { role: string; content: unknown }[];
  tools: { type?: string; function?: { name: string }; name?: string }[];
  stream: boolean;
  tool_choice?: unknown;
}

const USAGE = { prompt_tokens: 17, completion_tokens: 5 };

export class SimWorkersAiChat {
  readonly chats: ChatCall[] = [];
  private readonly embeddings = new SimWorkersAi();
  private next = 0;
  constructor(private readonly script: ChatTurn[]) {}

  async run(model: string, inputs: Record<string, unknown>, _options?: unknown): Promise<unknown> {
    if (model === SIM_MODEL) return this.embeddings.run(model, inputs);
    if (!model.startsWith("@cf/")) throw new Error(`AiError: No such model ${model} or task`);
    if (!Array.isArray(inputs.messages)) throw new Error("AiError: 5006: Error: required properties at '/' are 'messages'");
    const stream = inputs.stream === true;
    this.chats.push({ model, messages: structuredClone(inputs.messages), tools: structuredClone((inputs.tools as ChatCall["tools"]) ?? []), stream, tool_choice: inputs.tool_choice });
    const turn = this.script[Math.min(this.next++, this.script.length - 1)];
    const text = typeof turn === "string" ? turn : "";
    const calls = typeof turn === "string" ? [] : turn.tools;
    if (!stream) return { response: text, tool_calls: calls.map((c) => ({ name: c.name, arguments: c.input })), usage: USAGE };
    const events = [
      ...(text ? [{ response: text.slice(0, Math.ceil(text.length / 2)) }, { response: text.slice(Math.ceil(text.length / 2)) }] : []),
      ...(calls.length ? [{ tool_calls: calls.map((c, index) => ({ index, id: `call_${this.next}_${index}`, type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })) }] : []),
      { response: "", usage: USAGE },
    ];
    const body = events.map((e) => `data: ${JSON.stringify(e)}\n\n`).join("") + "data: [DONE]\n\n";
    return new ReadableStream({ start: (c) => (c.enqueue(new TextEncoder().encode(body)), c.close()) });
  }
}
