// The identity tag that ends every tool result (PROTOCOL §2).
const TAG_RE = /\n?\[motebit:[^\]]*\]\s*$/;

export function identityTag(motebitId: string, publicKeyHex: string | null): string {
  const key = publicKeyHex ? publicKeyHex.slice(0, 16) : "none";
  return `[motebit:${motebitId.slice(0, 8)} key:${key}]`;
}

/** text + "\n" + tag: one newline before, nothing after, so clients can strip it with TAG_RE. */
export function withIdentityTag(text: string, motebitId: string, publicKeyHex: string | null): string {
  return text + "\n" + identityTag(motebitId, publicKeyHex);
}

export function stripIdentityTag(text: string): string {
  return text.replace(TAG_RE, "");
}
