// RFC 6570 level 1 URI templates ({name} variables), enough for resource templates: match a URI, name the variables.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

/**
 * A variable whose percent-encoding is broken, or that decodes (once, or again as a module might) to a path
 * separator, NUL or a "." / ".." segment: never handed to a resource's read().
 */
export class UnsafeTemplateVariable extends Error {
  constructor(
    readonly variable: string,
    why = 'decodes to a path separator, NUL or a "." / ".." segment',
  ) {
    super(`variable "${variable}" ${why}`);
  }
}

const unsafe = (v: string) => /[/\\\0]/.test(v) || v === "." || v === "..";
// How many further decodings a value is checked through: "%25252e" needs three to become ".".
const REDECODINGS = 4;

/** The variable's value decoded once; throws when it is malformed or when any further decoding makes it unsafe. */
function decodeVariable(name: string, raw: string): string {
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    throw new UnsafeTemplateVariable(name, "has a malformed percent-escape");
  }
  if (unsafe(value)) throw new UnsafeTemplateVariable(name);
  // A double-encoded "%252e%252e" is ".." to a module that decodes again: refused too. The further decodings
  // turn only ASCII escapes into characters and skip broken ones, as a lenient decoder would, since every unsafe
  // character is ASCII; a value in which nothing decodes any more ("100%") is plain text from there on.
  let again = value;
  for (let i = 0; i < REDECODINGS; i++) {
    const next = again.replace(/%([0-7][0-9A-Fa-f])/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (next === again) break;
    if (unsafe(next)) throw new UnsafeTemplateVariable(name, 'is encoded more than once into a path separator, NUL or a "." / ".." segment');
    again = next;
  }
  return value;
}

/**
 * The variables when `uri` fits `template`, else null. A variable never spans a "/", before or after decoding:
 * one that is malformed or decodes to "/", "\\", NUL, "." or ".." throws UnsafeTemplateVariable rather than reach a resource.
 */
export function matchTemplate(template: string, uri: string): Record<string, string> | null {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[A-Za-z0-9_]+\})/)
    .map((part) => {
      const v = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
      if (!v) return escape(part);
      names.push(v[1]);
      return "([^/]+)";
    })
    .join("");
  const m = new RegExp(`^${pattern}$`).exec(uri);
  if (!m) return null;
  const out: Record<string, string> = {};
  names.forEach((n, i) => {
    out[n] = decodeVariable(n, m[i + 1]);
  });
  return out;
}
