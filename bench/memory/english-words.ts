// English vocabulary for `bench:memory --english`: the distinct words of the recall bench's memories and
// questions, so the semantic embedder's word-vector part is non-zero for nearly every memory and query (the
// made-up words of the default corpus mostly miss the table, which leaves that part zero).
import { HELDOUT_EXACT, HELDOUT_PARAPHRASES } from "../recall/pairs-heldout.js";
import { TUNING_EXACT, TUNING_PARAPHRASES } from "../recall/pairs-tuning.js";

export function englishWords(): string[] {
  const words = new Set<string>();
  for (const p of [...TUNING_PARAPHRASES, ...TUNING_EXACT, ...HELDOUT_PARAPHRASES, ...HELDOUT_EXACT]) {
    for (const w of `${p.memory} ${p.question}`.toLowerCase().match(/\p{L}{3,}/gu) ?? []) words.add(w);
  }
  return [...words];
}
