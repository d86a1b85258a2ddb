// AI mode at the edge: the memory backends the AI settings (src/settings/host-settings.ts) select. The model itself
// is built in edge-llm.ts, loaded only in AI mode.
import { type AiSettings, memoryBackends, StartupError } from "../src/index.js";
import type { ObjectEnv } from "./object-env.js";

/** MOTEBIT_EMBEDDER: default workers-ai where the AI binding exists, else local. Ollama is not reachable from the edge. */
export function edgeMemory(env: ObjectEnv, s: AiSettings, motebitId: string) {
  const embedder = s.embedder ?? (env.AI ? "workers-ai" : "local");
  if (embedder === "ollama") throw new StartupError("MOTEBIT_EMBEDDER=ollama is for motebit-local; at the edge use workers-ai or local");
  return memoryBackends({ ai: embedder === "workers-ai" ? env.AI : null, vectorize: env.VECTORIZE, motebitId });
}
