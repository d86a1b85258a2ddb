// AI mode at the edge: the settings from the Worker's vars and secrets (the names motebit-local reads) and the
// memory backends they select. The model itself is built in edge-llm.ts, loaded only in AI mode.
import { type AiSettings, memoryBackends, readAiSettings, StartupError } from "../src/index.js";
import type { ObjectEnv } from "./object-env.js";

/** Throws StartupError naming the variable; the object then answers 500 with the reason. */
export function edgeAiSettings(env: ObjectEnv): AiSettings {
  return readAiSettings(env, { direct: false, hasAiBinding: env.AI !== undefined });
}

/** MOTEBIT_EMBEDDER: default workers-ai where the AI binding exists, else local. Ollama is not reachable from the edge. */
export function edgeMemory(env: ObjectEnv, s: AiSettings, motebitId: string) {
  const embedder = s.embedder ?? (env.AI ? "workers-ai" : "local");
  if (embedder === "ollama") throw new StartupError("MOTEBIT_EMBEDDER=ollama is for motebit-local; at the edge use workers-ai or local");
  return memoryBackends({ ai: embedder === "workers-ai" ? env.AI : null, vectorize: env.VECTORIZE, motebitId });
}
