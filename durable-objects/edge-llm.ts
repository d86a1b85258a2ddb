// The edge's model: Workers AI through the AI binding (workers-ai-provider), or a fetch provider (Anthropic,
// a remote Ollama). The Durable Object imports this module only in AI mode, so a direct-mode object never
// evaluates the AI SDK.
import { createWorkersAI } from "workers-ai-provider";
import { fetchProvider } from "../src/ai.js";
import type { AiSettings, LlmProvider } from "../src/index.js";
import type { ObjectEnv } from "./object-env.js";

export function edgeLlm(env: ObjectEnv, s: AiSettings): LlmProvider {
  if (s.provider !== "workers-ai") return fetchProvider(s);
  const workersai = createWorkersAI({ binding: env.AI as unknown as Ai });
  return { provider: "workers-ai", modelName: s.model, id: `workers-ai:${s.model}`, model: workersai(s.model as Parameters<typeof workersai>[0]) };
}
