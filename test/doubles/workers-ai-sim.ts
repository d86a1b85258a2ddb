// An in-memory Workers AI for the one model memory uses, @cf/baai/bge-base-en-v1.5: same call and result
// shapes ({text: string | string[]} → {shape: [n, 768], data: number[][], pooling: "mean"}), the same
// 100-text batch limit, an error for other models. The vectors are deterministic hashed n-grams (768
// dims), so texts that share words land near each other as they would with the real model, and every
// vector is scaled by a text-dependent factor so consumers that forget to normalise are caught.
// Plain TypeScript so Node tests can use it directly; workers-ai-double.ts exposes it as a service binding.
import { LocalEmbedder } from "../../src/memory/embedder-local.js";

export const SIM_MODEL = "@cf/baai/bge-base-en-v1.5";
export const SIM_DIMENSIONS = 768;
const MAX_BATCH = 100;

export class SimWorkersAi {
  private readonly embedder = new LocalEmbedder({ dimensions: SIM_DIMENSIONS });
  readonly calls: { model: string; batch: number }[] = [];

  async run(model: string, inputs: unknown): Promise<{ shape: number[]; data: number[][]; pooling: "mean" }> {
    if (model !== SIM_MODEL) throw new Error(`AiError: No such model ${model} or task`);
    const text = (inputs as { text?: unknown } | null)?.text;
    const texts = typeof text === "string" ? [text] : text;
    if (!Array.isArray(texts) || texts.length === 0 || texts.some((t) => typeof t !== "string")) {
      throw new Error("AiError: 5006: Error: required properties at '/' are 'text'");
    }
    if (texts.length > MAX_BATCH) throw new Error(`AiError: 5006: Error: array at '/text' must NOT have more than ${MAX_BATCH} items`);
    this.calls.push({ model, batch: texts.length });
    const data = (texts as string[]).map((t) => {
      const scale = 0.5 + (t.length % 7);
      return Array.from(this.embedder.embedOne(t), (x) => x * scale);
    });
    return { shape: [data.length, SIM_DIMENSIONS], data, pooling: "mean" };
  }
}
