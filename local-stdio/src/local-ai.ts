// AI mode on the owner's machine: the model and the embedder the AI settings (config-file.ts localSettings) select.
// The AI SDK loads only when a setting needs it.
import { type AiSettings, DEFAULT_OLLAMA_EMBEDDING_MODEL, type Embedder, type LlmProvider } from "motebit-edge/core";
import { CliError } from "./cli-error.js";
import { ownerDefaultEmbedder } from "./encoder/owner-embedder.js";

export interface LocalAi {
  settings: AiSettings;
  /** null in direct mode. */
  llm: LlmProvider | null;
  /** undefined: the word table alone (SemanticEmbedder, MOTEBIT_EMBEDDER=local). */
  embedder: Embedder | undefined;
}

/** An unreachable embedder is a CliError (serve exits 1 with one stderr line). */
export async function localAi(settings: AiSettings, log: (line: string) => void): Promise<LocalAi> {
  const llm = settings.mode === "ai" ? (await import("motebit-edge/core/ai")).fetchProvider(settings) : null;
  // Unset: the sentence encoder with the word table, offline (its model loads at the first embed).
  let embedder: Embedder | undefined = settings.embedder === null ? ownerDefaultEmbedder(log) : undefined;
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
