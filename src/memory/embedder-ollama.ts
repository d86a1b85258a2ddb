// Ollama's embedding models through the AI SDK's `embed`, for recall by meaning on the owner's machine.
// The dimension is whatever the model returns, so the embedder probes it once at start-up; the id names the
// model and the dimension, so a change of either re-embeds every stored memory before recall uses it.
import { embedMany } from "ai";
import { createOllama } from "ollama-ai-provider-v2";
import type { Embedder } from "../ports.js";
import { toUnitLength } from "./unit-vector.js";

export async function createOllamaEmbedder(o: { baseUrl: string; model: string; fetch?: typeof fetch }): Promise<Embedder> {
  const model = createOllama({ baseURL: o.baseUrl, fetch: o.fetch }).embedding(o.model);
  const run = async (texts: string[]): Promise<Float32Array[]> => {
    const { embeddings } = await embedMany({ model, values: texts, maxRetries: 1 });
    return embeddings.map((row) => {
      const v = Float32Array.from(row);
      if (!toUnitLength(v)) throw new Error(`Ollama ${o.model} returned a non-finite embedding value`);
      return v;
    });
  };
  let probe: Float32Array;
  try {
    [probe] = await run(["dimension probe"]);
  } catch (e) {
    throw new Error(`MOTEBIT_EMBEDDER=ollama: cannot embed with ${o.model} at ${o.baseUrl} (${(e as Error).message}); is Ollama running with the model pulled?`);
  }
  const dimensions = probe.length;
  return {
    id: `ollama:${o.model}:${dimensions}`,
    dimensions,
    async embed(texts) {
      const out = await run(texts);
      for (const v of out) {
        if (v.length !== dimensions) throw new Error(`Ollama ${o.model} returned ${v.length} dimensions, expected ${dimensions}`);
      }
      return out;
    },
  };
}
