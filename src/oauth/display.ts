// How strings a stranger chose (a client's name and id, its redirect URI) are shown to the owner who approves them,
// on the consent page and in the terminal alike: what the owner reads must be what the owner signs, so nothing in
// them may move the cursor, rewrite a line, reorder text or hide itself. The scopes a request asks for are shown
// here too, each with what it lets the client do.
import { OAUTH_SCOPES, SCOPE_MEANINGS } from "../policy/admission/oauth-scopes.js";

/**
 * `s` with every character that does not show as itself written as a visible escape (\u{1b}, \u{d}, \u{202e}):
 * C0 and C1 controls and DEL, format characters (bidi overrides, zero-width ones), line and paragraph separators,
 * and unassigned or private-use code points. A backslash is doubled, so an escape cannot be forged by typing one.
 */
export function visible(s: string): string {
  return s.replace(/\\|[\p{C}\p{Zl}\p{Zp}]/gu, (ch) => (ch === "\\" ? "\\\\" : `\\u{${ch.codePointAt(0)!.toString(16)}}`));
}

/**
 * Where a code sent to `uri` goes, as the owner should read it: the host of a web redirect (a non-ASCII name in
 * punycode, as the URL parser writes it), the scheme of an app's own; never the raw string.
 */
export function redirectTarget(uri: string): string {
  try {
    const u = new URL(uri);
    return visible(u.host !== "" ? u.host : `${u.protocol}// (an app on this device)`);
  } catch {
    return visible(uri);
  }
}

/** Each known scope of a scope string, in order, with what it lets the client do. */
export function scopesShown(scope: string): { scope: string; meaning: string }[] {
  const asked = scope.split(" ");
  return OAUTH_SCOPES.filter((s) => asked.includes(s)).map((s) => ({ scope: s, meaning: SCOPE_MEANINGS[s] }));
}
