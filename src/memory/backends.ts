// Which embedder and vector index a motebit uses, chosen by the bindings its host has configured:
// no bindings → the offline default (semantic local embedder, embedded index); AI → Workers AI embeddings, still
// searched in the object; AI + VECTORIZE → Workers AI embeddings searched in Vectorize (one namespace per motebit).
import type { Embedder, VectorIndex } from "../ports.js";
import { SemanticEmbedder } from "./embedder-semantic.js";
import { WorkersAiEmbedder, type WorkersAiBinding } from "./embedder-workers-ai.js";
import { VectorizeIndex, type VectorizeBinding } from "./index-vectorize.js";

export function memoryBackends(o: { ai?: WorkersAiBinding | null; vectorize?: VectorizeBinding | null; motebitId: string }): {
  embedder: Embedder;
  index: VectorIndex | "embedded";
} {
  if (o.vectorize && !o.ai) {
    // A Vectorize index has fixed dimensions (768 for the Workers AI model); local vectors cannot go in it.
    throw new Error("VECTORIZE is bound but AI is not: Vectorize memory needs Workers AI embeddings — bind AI too, or remove VECTORIZE to use the embedded index");
  }
  if (!o.ai) return { embedder: new SemanticEmbedder(), index: "embedded" };
  const embedder = new WorkersAiEmbedder({ ai: o.ai });
  if (!o.vectorize) return { embedder, index: "embedded" };
  return { embedder, index: new VectorizeIndex({ binding: o.vectorize, namespace: o.motebitId }) };
}
