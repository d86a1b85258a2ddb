// RFC 6570 level 1 URI templates ({name} variables), enough for resource templates: match a URI, name the variables.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

/** A variable that percent-decodes to a path separator, NUL or a "." / ".." segment: never handed to a resource's read(). */
export class UnsafeTemplateVariable extends Error {
  constructor(readonly variable: string) {
    super(`variable "${variable}" decodes to a path separator, NUL or a "." / ".." segment`);
  }
}

const unsafe = (v: string) => /[/\\\0]/.test(v) || v === "." || v === "..";

/**
 * The variables when `uri` fits `template`, else null. A variable never spans a "/", before or after decoding:
 * one that decodes to "/", "\\", NUL, "." or ".." throws UnsafeTemplateVariable rather than reach a resource.
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
    let v: string;
    try {
      v = decodeURIComponent(m[i + 1]);
    } catch {
      v = m[i + 1];
    }
    if (unsafe(v)) throw new UnsafeTemplateVariable(n);
    out[n] = v;
  });
  return out;
}
