// A nesting limit for JSON from outside, checked on the raw text in one pass with no recursion, before
// JSON.parse or anything else walks the value. Deep nesting costs little to send (about 3,700 levels fit in
// a few KiB) and overflows the stack of whatever recurses over it next (the Worker → Durable Object RPC
// serialiser, a validator, canonical JSON), so it is refused up front, the same way on every transport.

/** Levels of `{`/`[` a message may nest, the envelope included (a tool's arguments sit at level 3). */
export const MAX_JSON_DEPTH = 128;

const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * True when the JSON text (UTF-8 bytes or a string) nests deeper than `max`. Brackets inside strings do not
 * count; the text need not be valid JSON (JSON.parse judges that afterwards). Stops at the first level too deep.
 */
export function nestsDeeperThan(text: Uint8Array | string, max: number = MAX_JSON_DEPTH): boolean {
  const at = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i];
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = at(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) {
      inString = true;
    } else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > max) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

export function tooDeepMessage(max: number = MAX_JSON_DEPTH): string {
  return `Invalid Request: the message nests deeper than ${max} levels of objects and arrays`;
}
