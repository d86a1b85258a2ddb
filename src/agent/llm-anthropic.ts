// The LLM port over the Anthropic Messages API, with fetch only, so it runs in Node and in workerd alike.
import type { LlmMessage, LlmProvider } from "../ports.js";

export const ANTHROPIC_DEFAULT_MODEL = "claude-sonnet-4-5";
export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";
const ANTHROPIC_VERSION = "2023-06-01";
const DEFAULT_MAX_TOKENS = 1024;

export interface AnthropicOptions {
  apiKey: string;
  model?: string;
  /** Where /v1/messages lives; tests point it at a local double. */
  baseUrl?: string;
  fetch?: typeof fetch;
}

interface MessagesResponse {
  content?: { type: string; text?: string }[];
  error?: { type?: string; message?: string };
}

export class AnthropicLlm implements LlmProvider {
  readonly id: string;
  private readonly apiKey: string;
  private readonly model: string;
  private readonly url: string;
  private readonly fetchFn: typeof fetch;

  constructor(o: AnthropicOptions) {
    if (o.apiKey.trim() === "") throw new Error("Anthropic: the API key is empty");
    this.apiKey = o.apiKey;
    this.model = o.model ?? ANTHROPIC_DEFAULT_MODEL;
    this.id = `anthropic:${this.model}`;
    this.url = `${(o.baseUrl ?? ANTHROPIC_DEFAULT_BASE_URL).replace(/\/+$/, "")}/v1/messages`;
    this.fetchFn = o.fetch ?? ((input, init) => fetch(input, init));
  }

  async complete(messages: LlmMessage[], opts: { signal?: AbortSignal; maxTokens?: number } = {}): Promise<string> {
    // The Messages API takes the system prompt beside the conversation, not inside it.
    const system = messages.filter((m) => m.role === "system").map((m) => m.content).join("\n\n");
    const turns = messages.filter((m) => m.role !== "system").map((m) => ({ role: m.role, content: m.content }));
    const body: Record<string, unknown> = { model: this.model, max_tokens: opts.maxTokens ?? DEFAULT_MAX_TOKENS, messages: turns };
    if (system !== "") body.system = system;
    const res = await this.fetchFn(this.url, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": this.apiKey, "anthropic-version": ANTHROPIC_VERSION },
      body: JSON.stringify(body),
      signal: opts.signal,
    });
    const text = await res.text();
    let parsed: MessagesResponse | null = null;
    try {
      parsed = JSON.parse(text) as MessagesResponse;
    } catch {
      // fall through: reported below with the status
    }
    if (!res.ok) {
      const detail = parsed?.error?.message ?? text.slice(0, 200);
      throw new Error(`Anthropic API ${res.status}${parsed?.error?.type ? ` ${parsed.error.type}` : ""}: ${detail}`);
    }
    if (parsed === null || !Array.isArray(parsed.content)) throw new Error("Anthropic API: the response has no content array");
    return parsed.content
      .filter((b) => b.type === "text" && typeof b.text === "string")
      .map((b) => b.text)
      .join("");
  }
}
