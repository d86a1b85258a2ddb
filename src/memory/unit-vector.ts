// Embeddings are stored and compared as unit vectors, so cosine similarity is a dot product everywhere.

/** Scales `v` in place to length 1 (a zero vector stays zero) and returns it; false when a value is not finite. */
export function toUnitLength(v: Float32Array): boolean {
  let norm = 0;
  for (let i = 0; i < v.length; i++) norm += v[i] * v[i];
  if (!Number.isFinite(norm)) return false;
  if (norm > 0) {
    const inv = 1 / Math.sqrt(norm);
    for (let i = 0; i < v.length; i++) v[i] *= inv;
  }
  return true;
}
