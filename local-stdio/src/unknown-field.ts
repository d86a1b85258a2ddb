// One short line for a config field nobody reads: the field meant when it is a near miss (case or a typo or two),
// else the known fields when they fit on a line, else where they are documented.

/** Edits (insert, delete, substitute) between a and b, case ignored. */
function distance(a: string, b: string): number {
  const x = a.toLowerCase();
  const y = b.toLowerCase();
  let prev = Array.from({ length: y.length + 1 }, (_, j) => j);
  for (let i = 1; i <= x.length; i++) {
    const row = [i];
    for (let j = 1; j <= y.length; j++) row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + (x[i - 1] === y[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[y.length];
}

export function unknownField(name: string, known: readonly string[]): string {
  const near = known.map((k) => ({ k, d: distance(name, k) })).filter((c) => c.d <= 2).sort((a, b) => a.d - b.d)[0];
  if (near) return `unknown field ${JSON.stringify(name)} (did you mean ${JSON.stringify(near.k)}?)`;
  const list = known.join(", ");
  return `unknown field ${JSON.stringify(name)} (${list.length <= 100 ? `known: ${list}` : "the fields are listed in docs/configuration.md"})`;
}
