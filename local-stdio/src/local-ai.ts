// AI mode on the owner's machine: the settings under the edge's names (environment first, then the same keys in
// the config file), the model and the embedder they select. The AI SDK loads only when a setting needs it.
import { type AiSettings, DEFAULT_OLLAMA_EMBEDDING_MODEL, type Embedder, type LlmProvider, readAiSettings, StartupError } from "motebit-edge/core";
import { CliError } from "./cli-error.js";
import type { LocalConfig } from "./config-file.js";

export interface LocalAi {
  settings: AiSettings;
  /** null in direct mode. */
  llm: LlmProvider | null;
  /** undefined: the offline default (SemanticEmbedder). */
  embedder: Embedder | undefined;
}

/** Every problem is a CliError naming the variable (serve exits 1 with one stderr line). */
export async function localAi(env: NodeJS.ProcessEnv, config: LocalConfig, direct: boolean): Promise<LocalAi> {
  let settings: AiSettings;
  try {
    settings = readAiSettings(env, { direct, hasAiBinding: false }, config.file);
  } catch (e) {
    throw e instanceof StartupError ? new CliError(e.message) : e;
  }
  const llm = settings.mode === "ai" ? (await import("motebit-edge/core/ai")).fetchProvider(settings) : null;
  let embedder: Embedder | undefined;
  if (settings.embedder === "ollama") {
    const { createOllamaEmbedder } = await import("motebit-edge/core/ai");
    try {
      embedder = await createOllamaEmbedder({ baseUrl: settings.ollamaBaseUrl, model: DEFAULT_OLLAMA_EMBEDDING_MODEL });
    } catch (e) {
      throw new CliError((e as Error).message);
    }
  }
  return { settings, llm, embedder };
}
