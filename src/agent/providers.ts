// The fetch-based providers (Anthropic, Ollama), built from the AI settings by either host. They run in Node
// and in workerd alike. Workers AI needs the AI binding, so the Durable Object builds that one itself.
// Hosts import this module only in AI mode, so direct mode never loads the AI SDK.
import { createAnthropic } from "@ai-sdk/anthropic";
import { createOllama } from "ollama-ai-provider-v2";
import type { LlmProvider } from "../ports.js";
import type { AiSettings } from "../settings/ai.js";

/**
 * fetch whose network failure reads as Node's does ("fetch failed", the reason in `cause`), so the AI SDK reports it
 * on every runtime as "Cannot connect to API" with the URL. workerd rejects with "internal error; reference = …",
 * which the SDK passes on bare, and the owner would not learn which URL could not be reached. Aborts pass unchanged.
 */
function failingLikeNode(fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    try {
      return await fetchFn(input, init);
    } catch (e) {
      const name = (e as Error)?.name;
      if (name === "AbortError" || name === "TimeoutError" || (e instanceof TypeError && e.message === "fetch failed")) throw e;
      throw new TypeError("fetch failed", { cause: e });
    }
  };
}

export function fetchProvider(s: AiSettings, fetchFn: typeof fetch = (input, init) => fetch(input, init)): LlmProvider {
  const fetchOrFail = failingLikeNode(fetchFn);
  if (s.provider === "anthropic") {
    if (s.anthropicApiKey === null) throw new Error("ANTHROPIC_API_KEY is not set");
    const anthropic = createAnthropic({ apiKey: s.anthropicApiKey, baseURL: s.anthropicBaseUrl, fetch: fetchOrFail });
    return { provider: "anthropic", modelName: s.model, id: `anthropic:${s.model}`, model: anthropic(s.model) };
  }
  if (s.provider === "ollama") {
    // "strict": this is Ollama's own API, so its newer fields (usage in streams) are asked for.
    const ollama = createOllama({ baseURL: s.ollamaBaseUrl, compatibility: "strict", fetch: fetchOrFail });
    return { provider: "ollama", modelName: s.model, id: `ollama:${s.model}`, model: ollama(s.model) };
  }
  throw new Error(`provider ${s.provider} is built by the host that has its binding`);
}
