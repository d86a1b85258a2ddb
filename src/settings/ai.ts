// The AI section of a host's settings (assembled with the others by host-settings.ts), read under the same names at
// the edge (vars and secrets) and in motebit-local (environment, or the config file). Anything malformed — or AI
// mode asked for without its credential — is a StartupError naming the variable, never a failure at the first call.
import { AI_TASK_TIMEOUT_MS, DIRECT_TASK_TIMEOUT_MS, SETTINGS, type AiProviderName, type EmbedderName } from "./catalog.js";
import { readSetting, type SettingsSource } from "./read.js";
import { StartupError } from "./startup-error.js";

export {
  AI_PROVIDERS,
  AI_TASK_TIMEOUT_MS,
  DEFAULT_ANTHROPIC_BASE_URL,
  DEFAULT_OLLAMA_BASE_URL,
  EMBEDDERS,
  MAX_TASK_TIMEOUT_MS,
  type AiProviderName,
  type EmbedderName,
} from "./catalog.js";
export type AiMode = "direct" | "ai";

const AI_SETTINGS = ["mode", "provider", "model", "anthropicApiKey", "anthropicBaseUrl", "ollamaBaseUrl", "taskTimeoutMs", "embedder"] as const;
/** The environment names of the AI settings, in the order the documentation lists them. */
export const AI_SETTING_NAMES: readonly string[] = AI_SETTINGS.map((n) => SETTINGS[n].env!);

/** Used when MOTEBIT_MODEL is unset (docs/configuration.md lists them). */
export const DEFAULT_MODELS: Readonly<Record<AiProviderName, string>> = Object.freeze({
  anthropic: "claude-sonnet-4-5",
  ollama: "llama3.1",
  "workers-ai": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
});
export const DEFAULT_OLLAMA_EMBEDDING_MODEL = "nomic-embed-text";

export interface AiSettings {
  mode: AiMode;
  provider: AiProviderName;
  /** MOTEBIT_MODEL verbatim, or the provider's default. */
  model: string;
  anthropicApiKey: string | null;
  anthropicBaseUrl: string;
  ollamaBaseUrl: string;
  /** MOTEBIT_TASK_TIMEOUT_MS, or null for the mode's default. */
  taskTimeoutMs: number | null;
  /** MOTEBIT_EMBEDDER, or null for the host's default (workers-ai where the AI binding exists, else local). */
  embedder: EmbedderName | null;
}

/**
 * Mode: `direct` (the --direct flag) wins; else MOTEBIT_MODE; else `ai` when the selected provider's credential is
 * present (Ollama and Workers AI need none: choosing them with MOTEBIT_PROVIDER is enough), else `direct`.
 * `hasAiBinding` says whether this host has a Workers AI binding (only the edge can).
 */
export function readAiSettings(src: SettingsSource, o: { direct: boolean; hasAiBinding: boolean }): AiSettings {
  const explicitProvider = readSetting("provider", src);
  const provider = explicitProvider ?? "anthropic";
  const requestedMode = readSetting("mode", src);
  const anthropicApiKey = readSetting("anthropicApiKey", src);
  const credential = provider === "anthropic" ? anthropicApiKey !== null : explicitProvider !== null;
  const mode: AiMode = o.direct ? "direct" : (requestedMode ?? (credential ? "ai" : "direct"));
  if (mode === "ai" && provider === "anthropic" && anthropicApiKey === null) {
    throw new StartupError("MOTEBIT_MODE=ai with MOTEBIT_PROVIDER=anthropic needs ANTHROPIC_API_KEY (set it, or choose MOTEBIT_MODE=direct)");
  }
  if (mode === "ai" && provider === "workers-ai" && !o.hasAiBinding) {
    throw new StartupError("MOTEBIT_PROVIDER=workers-ai needs the AI binding (wrangler.toml [ai] binding = \"AI\"); it exists only at the edge");
  }
  const embedder = readSetting("embedder", src);
  if (embedder === "workers-ai" && !o.hasAiBinding) {
    throw new StartupError("MOTEBIT_EMBEDDER=workers-ai needs the AI binding (wrangler.toml [ai] binding = \"AI\"); it exists only at the edge");
  }
  return {
    mode,
    provider,
    model: readSetting("model", src) ?? DEFAULT_MODELS[provider],
    anthropicApiKey,
    anthropicBaseUrl: readSetting("anthropicBaseUrl", src),
    ollamaBaseUrl: readSetting("ollamaBaseUrl", src),
    taskTimeoutMs: readSetting("taskTimeoutMs", src),
    embedder,
  };
}

/**
 * The task budget, decided here only: MOTEBIT_TASK_TIMEOUT_MS when set, else 120000 in AI mode (a turn chains
 * several model and tool calls under the one budget) and 60000 in direct mode.
 */
export function taskTimeoutFor(configured: number | null | undefined, aiMode: boolean): number {
  return configured ?? (aiMode ? AI_TASK_TIMEOUT_MS : DIRECT_TASK_TIMEOUT_MS);
}
