// What an error message may repeat of a caller's input: a bounded prefix, so a 1 MiB method name or header
// costs the caller, never the server's answers or logs.

/** How many characters of caller input an error message repeats. */
export const MAX_ECHO_CHARS = 100;

/**
 * `value` as text, cut to MAX_ECHO_CHARS characters plus "…" when longer (never splitting a surrogate pair).
 * A value whose String() throws (a client's `{"toString":1}`) is shown as JSON, never thrown from an error path.
 */
export function echo(value: unknown): string {
  const s = typeof value === "string" ? value : asText(value);
  if (s.length <= MAX_ECHO_CHARS) return s;
  const cut = s.charCodeAt(MAX_ECHO_CHARS - 1) >= 0xd800 && s.charCodeAt(MAX_ECHO_CHARS - 1) <= 0xdbff ? MAX_ECHO_CHARS - 1 : MAX_ECHO_CHARS;
  return `${s.slice(0, cut)}…`;
}

function asText(value: unknown): string {
  try {
    return String(value);
  } catch {
    try {
      return JSON.stringify(value) ?? typeof value;
    } catch {
      return typeof value;
    }
  }
}
