// Deterministic synthetic memories and queries for the memory bench: sentences over a Zipf-distributed
// vocabulary of 4,000 made-up words (so word overlap behaves like natural text), or over the words given,
// and queries made of a few words taken from one existing memory (so every query has real matches).

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
}

const SYLLABLES = ["ka", "to", "re", "mi", "su", "lo", "pen", "dar", "vik", "tor", "an", "el", "is", "on", "ur", "ba", "de", "fi", "go", "hu", "ne", "sa", "ti", "vo"];
const FUNCTION_WORDS = ["the", "a", "of", "to", "and", "in", "is", "for", "on", "with"];

export function makeCorpus(seed = 7, words?: readonly string[]) {
  const rnd = prng(seed);
  const vocab: string[] = words ? [...words] : [];
  for (let i = 0; i < (words ? 0 : 4000); i++) {
    let w = "";
    const n = 2 + Math.floor(rnd() * 3);
    for (let j = 0; j < n; j++) w += SYLLABLES[Math.floor(rnd() * SYLLABLES.length)];
    vocab.push(w);
  }
  const word = () => (rnd() < 0.25 ? FUNCTION_WORDS[Math.floor(rnd() * FUNCTION_WORDS.length)] : vocab[Math.floor(Math.pow(rnd(), 2.2) * vocab.length)]);
  const memory = (i: number) => Array.from({ length: 8 + Math.floor(rnd() * 18) }, word).join(" ") + ` (#${i})`;
  const query = (source: string) => {
    const words = source.split(" ").filter((w) => !FUNCTION_WORDS.includes(w) && !w.startsWith("("));
    return Array.from({ length: 3 + Math.floor(rnd() * 3) }, () => words[Math.floor(rnd() * words.length)]).join(" ");
  };
  return { memory, query, pick: (n: number) => Math.floor(rnd() * n) };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
