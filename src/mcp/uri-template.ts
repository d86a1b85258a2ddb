// RFC 6570 level 1 URI templates ({name} variables), enough for resource templates: match a URI, name the variables.

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export function templateVariables(template: string): string[] {
  return [...template.matchAll(/\{([A-Za-z0-9_]+)\}/g)].map((m) => m[1]);
}

/** The variables when `uri` fits `template` (a variable never spans a "/"), else null. */
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
    try {
      out[n] = decodeURIComponent(m[i + 1]);
    } catch {
      out[n] = m[i + 1];
    }
  });
  return out;
}
