// A scripted model server on 127.0.0.1 that speaks the wire formats the real provider packages use:
// the Anthropic Messages API (POST /v1/messages, JSON or SSE), Ollama's own API (POST /api/chat, JSON or NDJSON;
// POST /api/embed) and the OpenAI-compatible chat API (POST /v1/chat/completions, JSON or SSE). Each chat request
// takes the next turn of the script — tool calls or a final answer — whichever API and streaming mode asked.
// Every request is kept (path, headers, body) so tests can assert what the motebit sent to its provider.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";

/** `id` scripts the tool-call id (Anthropic and OpenAI APIs; Ollama's has none), so a hostile model can reuse one. */
export type ModelTurn = string | { tools: { name: string; input: Record<string, unknown>; id?: string }[] };

export interface SeenRequest {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

export const EMBED_DIMENSIONS = 64;
const USAGE = { input: 21, output: 9 };

export class ScriptedModelServer {
  readonly requests: SeenRequest[] = [];
  private script: ModelTurn[] = [];
  private next = 0;
  private server: Server | null = null;
  private readonly embedder = new LocalEmbedder({ dimensions: EMBED_DIMENSIONS });
  url = "";

  /** Replaces the script; the last turn repeats once the script runs out. */
  setScript(...turns: ModelTurn[]): void {
    this.script = turns;
    this.next = 0;
  }

  /** Chat requests only (embeddings left out). */
  chats(): SeenRequest[] {
    return this.requests.filter((r) => !r.path.endsWith("/embed"));
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    const { port } = this.server.address() as { port: number };
    return (this.url = `http://127.0.0.1:${port}`);
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise((r) => this.server?.close(r));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const c of req) raw += c;
    const body = raw ? JSON.parse(raw) : {};
    const path = req.url ?? "";
    this.requests.push({ path, headers: req.headers, body });
    if (path === "/api/embed") return this.embed(body, res);
    const turn = this.script.length ? this.script[Math.min(this.next++, this.script.length - 1)] : "";
    const stream = body.stream === true;
    if (path === "/v1/messages") return stream ? anthropicStream(turn, body, res) : json(res, anthropicMessage(turn, body));
    if (path === "/api/chat") return stream ? ollamaStream(turn, body, res) : json(res, ollamaMessage(turn, body, true));
    if (path === "/v1/chat/completions") return stream ? openAiStream(turn, body, res) : json(res, openAiMessage(turn, body));
    res.writeHead(404, { "content-type": "application/json" }).end(JSON.stringify({ error: `no route ${path}` }));
  }

  private async embed(body: { model: string; input: string | string[] }, res: ServerResponse): Promise<void> {
    const input = Array.isArray(body.input) ? body.input : [body.input];
    const embeddings = input.map((t) => Array.from(this.embedder.embedOne(t)));
    json(res, { model: body.model, embeddings, total_duration: 1, load_duration: 0, prompt_eval_count: input.length });
  }
}

function json(res: ServerResponse, value: unknown): void {
  res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
}

let ids = 0;
const callId = () => `call_${++ids}`;
const toolsOf = (t: ModelTurn) => (typeof t === "string" ? [] : t.tools);
const textOf = (t: ModelTurn) => (typeof t === "string" ? t : "");

function anthropicMessage(t: ModelTurn, body: { model: string }) {
  type Block = { type: "text"; text: string } | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> };
  const content: Block[] = [
    ...(textOf(t) ? [{ type: "text" as const, text: textOf(t) }] : []),
    ...toolsOf(t).map((c) => ({ type: "tool_use" as const, id: c.id ?? callId(), name: c.name, input: c.input })),
  ];
  return {
    id: `msg_${++ids}`,
    type: "message",
    role: "assistant",
    model: body.model,
    content,
    stop_reason: toolsOf(t).length ? "tool_use" : "end_turn",
    stop_sequence: null,
    usage: { input_tokens: USAGE.input, output_tokens: USAGE.output },
  };
}

function anthropicStream(t: ModelTurn, body: { model: string }, res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  const send = (type: string, data: Record<string, unknown>) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const m = anthropicMessage(t, body);
  send("message_start", { message: { ...m, content: [], stop_reason: null, usage: { input_tokens: USAGE.input, output_tokens: 1 } } });
  m.content.forEach((block, index) => {
    if (block.type === "text") {
      send("content_block_start", { index, content_block: { type: "text", text: "" } });
      // Two deltas, so the client really assembles a stream.
      const text = block.text;
      const half = Math.ceil(text.length / 2);
      send("content_block_delta", { index, delta: { type: "text_delta", text: text.slice(0, half) } });
      send("content_block_delta", { index, delta: { type: "text_delta", text: text.slice(half) } });
    } else {
      send("content_block_start", { index, content_block: { type: "tool_use", id: block.id, name: block.name, input: {} } });
      send("content_block_delta", { index, delta: { type: "input_json_delta", partial_json: JSON.stringify(block.input) } });
    }
    send("content_block_stop", { index });
  });
  send("message_delta", { delta: { stop_reason: m.stop_reason, stop_sequence: null }, usage: { output_tokens: USAGE.output } });
  send("message_stop", {});
  res.end();
}

function ollamaMessage(t: ModelTurn, body: { model: string }, done: boolean) {
  const tools = toolsOf(t);
  return {
    model: body.model,
    created_at: new Date().toISOString(),
    message: {
      role: "assistant",
      content: textOf(t),
      ...(tools.length ? { tool_calls: tools.map((c) => ({ function: { name: c.name, arguments: c.input } })) } : {}),
    },
    done,
    ...(done ? { done_reason: "stop", prompt_eval_count: USAGE.input, eval_count: USAGE.output, total_duration: 1 } : {}),
  };
}

function ollamaStream(t: ModelTurn, body: { model: string }, res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  const line = (v: unknown) => res.write(JSON.stringify(v) + "\n");
  const text = textOf(t);
  const half = Math.ceil(text.length / 2);
  if (text) {
    line({ ...ollamaMessage(text.slice(0, half), body, false) });
    line({ ...ollamaMessage(text.slice(half), body, false) });
  }
  if (toolsOf(t).length) line(ollamaMessage({ tools: toolsOf(t) }, body, false));
  line({ ...ollamaMessage("", body, true) });
  res.end();
}

function openAiMessage(t: ModelTurn, body: { model: string }) {
  const tools = toolsOf(t);
  return {
    id: `chatcmpl_${++ids}`,
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: textOf(t) || null,
          ...(tools.length
            ? { tool_calls: tools.map((c) => ({ id: c.id ?? callId(), type: "function", function: { name: c.name, arguments: JSON.stringify(c.input) } })) }
            : {}),
        },
        finish_reason: tools.length ? "tool_calls" : "stop",
      },
    ],
    usage: { prompt_tokens: USAGE.input, completion_tokens: USAGE.output, total_tokens: USAGE.input + USAGE.output },
  };
}

function openAiStream(t: ModelTurn, body: { model: string }, res: ServerResponse): void {
  res.writeHead(200, { "content-type": "text/event-stream" });
  const m = openAiMessage(t, body);
  const base = { id: m.id, object: "chat.completion.chunk", created: m.created, model: m.model };
  const chunk = (delta: unknown, finish: string | null, usage?: unknown) =>
    res.write(`data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}) })}\n\n`);
  const msg = m.choices[0].message;
  if (msg.content) chunk({ role: "assistant", content: msg.content }, null);
  (msg.tool_calls ?? []).forEach((c, index) => chunk({ role: "assistant", tool_calls: [{ index, ...c }] }, null));
  chunk({}, m.choices[0].finish_reason, m.usage);
  res.write("data: [DONE]\n\n");
  res.end();
}
