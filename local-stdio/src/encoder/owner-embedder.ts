// motebit-local's default embedder: the sentence encoder for meaning combined with the word table for exact
// names, ids and numbers (the rule and its weight: src/memory/embedder-combined.ts). The edge keeps the word table
// alone (its Worker has no room for a 28 MB model); MOTEBIT_EMBEDDER=local selects that here too.
import { CombinedEmbedder, SemanticEmbedder } from "motebit-edge/core";
import { SentenceEncoder } from "./sentence-encoder.js";

/** Free to construct: the model loads at the first embed or whenReady. */
export function ownerDefaultEmbedder(log: (line: string) => void): CombinedEmbedder {
  return new CombinedEmbedder({ encoder: new SentenceEncoder({ log }), table: new SemanticEmbedder() });
}
