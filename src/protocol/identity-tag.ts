// The identity tag that ends every tool result (docs/protocol.md §2).

export function identityTag(motebitId: string, publicKeyHex: string | null): string {
  const key = publicKeyHex ? publicKeyHex.slice(0, 16) : "none";
  return `[motebit:${motebitId.slice(0, 8)} key:${key}]`;
}

/** text + "\n" + tag: one newline before, nothing after, so clients can strip it. */
export function withIdentityTag(text: string, motebitId: string, publicKeyHex: string | null): string {
  return text + "\n" + identityTag(motebitId, publicKeyHex);
}

const OPEN = "[motebit:";

/**
 * Exactly what clients do with `/\n?\[motebit:[^\]]*\]\s*$/`, in linear time: that regex is quadratic on a
 * long text full of "[motebit:" fragments, and tool results can be large.
 */
export function stripIdentityTag(text: string): string {
  let end = text.length;
  while (end > 0 && /\s/.test(text[end - 1])) end--;
  if (end === 0 || text[end - 1] !== "]") return text;
  const close = end - 1;
  // the match is the leftmost "[motebit:" with no "]" between it and the final "]"
  const start = text.indexOf(OPEN, text.lastIndexOf("]", close - 1) + 1);
  if (start < 0 || start + OPEN.length > close) return text;
  return text.slice(0, start > 0 && text[start - 1] === "\n" ? start - 1 : start);
}
