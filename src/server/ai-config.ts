// AI mode settings, read from an env-like record under the same names at the edge (vars and secrets) and in
// motebit-local (environment, or the same keys in the config file). Anything malformed — or AI mode asked for
// without its credential — is a StartupError naming the variable, never a failure at the first call.
import { StartupError } from "./startup-error.js";

export type AiMode = "direct" | "ai";
export const AI_PROVIDERS = ["anthropic", "ollama", "workers-ai"] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];
export const EMBEDDERS = ["local", "ollama", "workers-ai"] as const;
export type EmbedderName = (typeof EMBEDDERS)[number];

/** The names both hosts read, in the order docs/configuration.md documents them. */
export const AI_SETTING_NAMES = [
  "MOTEBIT_MODE",
  "MOTEBIT_PROVIDER",
  "MOTEBIT_MODEL",
  "ANTHROPIC_API_KEY",
  "ANTHROPIC_BASE_URL",
  "OLLAMA_BASE_URL",
  "MOTEBIT_TASK_TIMEOUT_MS",
  "MOTEBIT_EMBEDDER",
] as const;

/** Used when MOTEBIT_MODEL is unset (docs/configuration.md lists them). */
export const DEFAULT_MODELS: Readonly<Record<AiProviderName, string>> = Object.freeze({
  anthropic: "claude-sonnet-4-5",
  ollama: "llama3.1",
  "workers-ai": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
});
/** The versioned API root, as @ai-sdk/anthropic reads it: requests go to `${base}/messages`. */
export const DEFAULT_ANTHROPIC_BASE_URL = "https://api.anthropic.com/v1";
/** Ollama's API root, as ollama-ai-provider-v2 reads it: requests go to `${base}/chat` and `${base}/embed`. */
export const DEFAULT_OLLAMA_BASE_URL = "http://127.0.0.1:11434/api";
export const DEFAULT_OLLAMA_EMBEDDING_MODEL = "nomic-embed-text";
export const AI_TASK_TIMEOUT_MS = 120_000;
export const MAX_TASK_TIMEOUT_MS = 60 * 60_000;

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

type EnvLike = Record<string, unknown>;

function str(env: EnvLike, name: string): string | null {
  const v = env[name];
  if (v === undefined || v === null) return null;
  if (typeof v === "number") return String(v);
  if (typeof v !== "string") throw new StartupError(`${name} must be a string`);
  return v.trim() === "" ? null : v.trim();
}

function oneOf<T extends string>(env: EnvLike, name: string, allowed: readonly T[]): T | null {
  const v = str(env, name);
  if (v === null) return null;
  if (!(allowed as readonly string[]).includes(v)) throw new StartupError(`${name} must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
  return v as T;
}

function url(env: EnvLike, name: string, fallback: string): string {
  const v = str(env, name);
  if (v === null) return fallback;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    throw new StartupError(`${name} must be an http(s) URL such as ${fallback}, got ${JSON.stringify(v)}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new StartupError(`${name} must be an http(s) URL such as ${fallback}, got ${JSON.stringify(v)}`);
  return v.replace(/\/+$/, "");
}

function timeout(env: EnvLike, name: string): number | null {
  const v = str(env, name);
  if (v === null) return null;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 1 || n > MAX_TASK_TIMEOUT_MS) {
    throw new StartupError(`${name} must be a whole number of milliseconds from 1 to ${MAX_TASK_TIMEOUT_MS}, got ${JSON.stringify(v)}`);
  }
  return n;
}

/**
 * Mode: `direct` (the --direct flag) wins; else MOTEBIT_MODE; else `ai` when the selected provider's credential is
 * present (Ollama and Workers AI need none: choosing them with MOTEBIT_PROVIDER is enough), else `direct`.
 * `hasAiBinding` says whether this host has a Workers AI binding (only the edge can).
 */
export function readAiSettings(env: EnvLike, o: { direct: boolean; hasAiBinding: boolean }): AiSettings {
  const explicitProvider = oneOf(env, "MOTEBIT_PROVIDER", AI_PROVIDERS);
  const provider = explicitProvider ?? "anthropic";
  const requestedMode = oneOf(env, "MOTEBIT_MODE", ["direct", "ai"] as const);
  const anthropicApiKey = str(env, "ANTHROPIC_API_KEY");
  const credential = provider === "anthropic" ? anthropicApiKey !== null : explicitProvider !== null;
  const mode: AiMode = o.direct ? "direct" : (requestedMode ?? (credential ? "ai" : "direct"));
  if (mode === "ai" && provider === "anthropic" && anthropicApiKey === null) {
    throw new StartupError("MOTEBIT_MODE=ai with MOTEBIT_PROVIDER=anthropic needs ANTHROPIC_API_KEY (set it, or choose MOTEBIT_MODE=direct)");
  }
  if (mode === "ai" && provider === "workers-ai" && !o.hasAiBinding) {
    throw new StartupError("MOTEBIT_PROVIDER=workers-ai needs the AI binding (wrangler.toml [ai] binding = \"AI\"); it exists only at the edge");
  }
  const embedder = oneOf(env, "MOTEBIT_EMBEDDER", EMBEDDERS);
  if (embedder === "workers-ai" && !o.hasAiBinding) {
    throw new StartupError("MOTEBIT_EMBEDDER=workers-ai needs the AI binding (wrangler.toml [ai] binding = \"AI\"); it exists only at the edge");
  }
  return {
    mode,
    provider,
    model: str(env, "MOTEBIT_MODEL") ?? DEFAULT_MODELS[provider],
    anthropicApiKey,
    anthropicBaseUrl: url(env, "ANTHROPIC_BASE_URL", DEFAULT_ANTHROPIC_BASE_URL),
    ollamaBaseUrl: url(env, "OLLAMA_BASE_URL", DEFAULT_OLLAMA_BASE_URL),
    taskTimeoutMs: timeout(env, "MOTEBIT_TASK_TIMEOUT_MS"),
    embedder,
  };
}

/** The task budget: MOTEBIT_TASK_TIMEOUT_MS, else 120000 in AI mode and 60000 in direct mode. */
export function taskTimeoutFor(s: Pick<AiSettings, "mode" | "taskTimeoutMs">, directDefault: number): number {
  return s.taskTimeoutMs ?? (s.mode === "ai" ? AI_TASK_TIMEOUT_MS : directDefault);
}
