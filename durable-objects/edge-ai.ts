// AI mode at the edge: the settings from the Worker's vars and secrets (the names motebit-local reads), the
// model they select — Workers AI through the AI binding, or a fetch provider — and the memory backends.
import { createWorkersAI } from "workers-ai-provider";
import { fetchProvider } from "../src/agent/providers.js";
import { memoryBackends } from "../src/memory/backends.js";
import type { LlmProvider } from "../src/ports.js";
import { readAiSettings, type AiSettings } from "../src/server/ai-config.js";
import { StartupError } from "../src/server/startup-error.js";
import type { EdgeEnv } from "../worker/env.js";

/** Throws StartupError naming the variable; the object then answers 500 with the reason. */
export function edgeAiSettings(env: EdgeEnv): AiSettings {
  return readAiSettings(env as unknown as Record<string, unknown>, { direct: false, hasAiBinding: env.AI !== undefined });
}

export function edgeLlm(env: EdgeEnv, s: AiSettings): LlmProvider | null {
  if (s.mode === "direct") return null;
  if (s.provider !== "workers-ai") return fetchProvider(s);
  const workersai = createWorkersAI({ binding: env.AI as unknown as Ai });
  return { provider: "workers-ai", modelName: s.model, id: `workers-ai:${s.model}`, model: workersai(s.model as Parameters<typeof workersai>[0]) };
}

/** MOTEBIT_EMBEDDER: default workers-ai where the AI binding exists, else local. Ollama is not reachable from the edge. */
export function edgeMemory(env: EdgeEnv, s: AiSettings, motebitId: string) {
  const embedder = s.embedder ?? (env.AI ? "workers-ai" : "local");
  if (embedder === "ollama") throw new StartupError("MOTEBIT_EMBEDDER=ollama is for motebit-local; at the edge use workers-ai or local");
  return memoryBackends({ ai: embedder === "workers-ai" ? env.AI : null, vectorize: env.VECTORIZE, motebitId });
}
