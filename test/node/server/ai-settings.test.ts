// Which mode, provider and model a host runs, from the names both hosts read (docs/ai-mode.md).
import { describe, expect, it } from "vitest";
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_MODELS, readAiSettings, taskTimeoutFor } from "../../../src/settings/ai.js";
import { StartupError } from "../../../src/settings/startup-error.js";

const read = (env: Record<string, unknown>, o: { direct?: boolean; hasAiBinding?: boolean } = {}) =>
  readAiSettings({ env }, { direct: o.direct ?? false, hasAiBinding: o.hasAiBinding ?? false });

describe("AI settings", () => {
  it("mode: --direct wins; else MOTEBIT_MODE; else ai when the provider's credential is present; else direct", () => {
    expect(read({}).mode).toBe("direct");
    expect(read({ ANTHROPIC_API_KEY: "k" }).mode).toBe("ai");
    expect(read({ ANTHROPIC_API_KEY: "k" }, { direct: true }).mode).toBe("direct");
    expect(read({ ANTHROPIC_API_KEY: "k", MOTEBIT_MODE: "direct" }).mode).toBe("direct");
    // Ollama and Workers AI need no key: choosing them is enough.
    expect(read({ MOTEBIT_PROVIDER: "ollama" }).mode).toBe("ai");
    expect(read({ MOTEBIT_PROVIDER: "workers-ai" }, { hasAiBinding: true }).mode).toBe("ai");
    expect(read({ MOTEBIT_PROVIDER: "ollama", MOTEBIT_MODE: "ai" }, { direct: true }).mode).toBe("direct");
  });

  it("the model is MOTEBIT_MODEL verbatim, else the provider's default; base URLs default to the documented roots", () => {
    expect(read({ ANTHROPIC_API_KEY: "k", MOTEBIT_MODEL: " claude-x " }).model).toBe("claude-x");
    expect(read({ MOTEBIT_PROVIDER: "ollama" }).model).toBe(DEFAULT_MODELS.ollama);
    const s = read({ ANTHROPIC_API_KEY: "k" });
    expect(s.model).toBe(DEFAULT_MODELS.anthropic);
    expect(s.anthropicBaseUrl).toBe(DEFAULT_ANTHROPIC_BASE_URL);
    expect(read({ ANTHROPIC_API_KEY: "k", ANTHROPIC_BASE_URL: "http://127.0.0.1:9/v1/" }).anthropicBaseUrl).toBe("http://127.0.0.1:9/v1");
  });

  it("the task budget: MOTEBIT_TASK_TIMEOUT_MS, else 120000 in AI mode and 60000 in direct mode", () => {
    const budget = (env: Record<string, unknown>) => {
      const s = read(env);
      return taskTimeoutFor(s.taskTimeoutMs, s.mode === "ai");
    };
    expect(budget({ ANTHROPIC_API_KEY: "k" })).toBe(120_000);
    expect(budget({})).toBe(60_000);
    expect(budget({ MOTEBIT_TASK_TIMEOUT_MS: "2500" })).toBe(2_500);
    expect(budget({ MOTEBIT_TASK_TIMEOUT_MS: 900 })).toBe(900);
  });

  it("every impossible setting is a StartupError naming its variable", () => {
    const cases: [Record<string, unknown>, RegExp, boolean?][] = [
      [{ MOTEBIT_MODE: "ai" }, /needs ANTHROPIC_API_KEY/],
      [{ MOTEBIT_MODE: "smart" }, /^MOTEBIT_MODE must be one of direct, ai/],
      [{ MOTEBIT_PROVIDER: "openai" }, /^MOTEBIT_PROVIDER must be one of/],
      [{ MOTEBIT_PROVIDER: "workers-ai" }, /needs the AI binding/],
      [{ MOTEBIT_EMBEDDER: "workers-ai" }, /^MOTEBIT_EMBEDDER=workers-ai needs the AI binding/],
      [{ MOTEBIT_EMBEDDER: "bert" }, /^MOTEBIT_EMBEDDER must be one of local, ollama, workers-ai/],
      [{ ANTHROPIC_BASE_URL: "api.anthropic.com" }, /^ANTHROPIC_BASE_URL must be an http\(s\) URL/],
      [{ OLLAMA_BASE_URL: "ftp://x" }, /^OLLAMA_BASE_URL must be an http\(s\) URL/],
      [{ MOTEBIT_TASK_TIMEOUT_MS: "0" }, /^MOTEBIT_TASK_TIMEOUT_MS must be a whole number/],
      [{ MOTEBIT_TASK_TIMEOUT_MS: "1.5" }, /^MOTEBIT_TASK_TIMEOUT_MS must be a whole number/],
    ];
    for (const [env, pattern] of cases) {
      let err: unknown;
      try {
        read(env);
      } catch (e) {
        err = e;
      }
      expect(err, JSON.stringify(env)).toBeInstanceOf(StartupError);
      expect((err as Error).message).toMatch(pattern);
    }
  });
});
