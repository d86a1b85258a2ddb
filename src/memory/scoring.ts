// How recall ranks candidates the vector index returned.
//
//   score = 0.75 · similarity + 0.15 · decayed confidence + 0.10 · recency
//
// - similarity: cosine between query and memory (both L2-normalised), in [-1, 1]. It dominates, so a
//   closely matching memory is never outranked by an unrelated one just for being confident or fresh.
// - decayed confidence: confidence · 0.5^(age / half-life), age counted from creation — a memory fades
//   unless it is re-stated (re-stating creates a new node).
// - recency: 0.5^(days since last recalled / 30) — memories that keep being useful stay near the top.
// Callers see `similarity` as the raw cosine; the combined score only orders the results.

const DAY_MS = 86_400_000;

export const RECALL_WEIGHTS = Object.freeze({ similarity: 0.75, confidence: 0.15, recency: 0.1 });
export const RECENCY_HALF_LIFE_DAYS = 30;

export function decayedConfidence(confidence: number, halfLifeDays: number, ageMs: number): number {
  if (!(halfLifeDays > 0)) return confidence;
  return confidence * Math.pow(0.5, Math.max(0, ageMs) / DAY_MS / halfLifeDays);
}

export function recency(lastAccessedAt: number, now: number): number {
  return Math.pow(0.5, Math.max(0, now - lastAccessedAt) / DAY_MS / RECENCY_HALF_LIFE_DAYS);
}

export function recallScore(
  m: { similarity: number; confidence: number; halfLifeDays: number; createdAt: number; lastAccessedAt: number },
  now: number,
): number {
  return (
    RECALL_WEIGHTS.similarity * m.similarity +
    RECALL_WEIGHTS.confidence * decayedConfidence(m.confidence, m.halfLifeDays, now - m.createdAt) +
    RECALL_WEIGHTS.recency * recency(m.lastAccessedAt, now)
  );
}
