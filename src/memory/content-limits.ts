// What a memory's content may be. Anything else is stored verbatim, as data: control characters (but NUL),
// markup and prompt-injection text are never interpreted here, and whoever shows a memory to a model
// must frame it as data (the agent does).

export const MAX_CONTENT_BYTES = 16 * 1024;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Returns the content unchanged, or throws an Error that says what is wrong with it. */
export function checkContent(content: unknown, what = "memory content"): string {
  if (typeof content !== "string") throw new Error(`${what} must be a string, got ${content === null ? "null" : typeof content}`);
  if (content.trim().length === 0) throw new Error(`${what} is empty`);
  // A UTF-16 length above the limit is already too many UTF-8 bytes; skip encoding a huge string.
  const bytes = content.length > MAX_CONTENT_BYTES ? content.length : new TextEncoder().encode(content).length;
  if (bytes > MAX_CONTENT_BYTES) throw new Error(`${what} is too large: ${content.length > MAX_CONTENT_BYTES ? "over " : ""}${bytes} bytes, the limit is ${MAX_CONTENT_BYTES} bytes (16 KiB)`);
  // SQLite stores UTF-8; a lone surrogate would come back as U+FFFD, i.e. not what was acknowledged.
  if (LONE_SURROGATE.test(content)) throw new Error(`${what} is not well-formed Unicode (it contains a lone surrogate)`);
  // Node's SQLite (node:sqlite, motebit-local) reads text back only up to its first U+0000: refused on both hosts
  // alike rather than cut short on one.
  if (content.includes("\u0000")) throw new Error(`${what} contains U+0000 (NUL), which is not stored`);
  return content;
}
