// The OAuth scopes a grant may carry (issue #41; docs/connect-an-mcp-host.md): what an MCP client may ask of this
// motebit over MCP, on top of (never instead of) the trust the owner gave it. A scope string is RFC 6749 §3.3's:
// space-delimited, order free; here it is always written canonically (known scopes, each once, in this order).

export const OAUTH_SCOPES = ["motebit:read", "motebit:tools", "motebit:task", "motebit:remember"] as const;

export type OAuthScope = (typeof OAUTH_SCOPES)[number];

/** What a request naming no scope gets, as every grant did before scopes existed. */
export const ALL_SCOPES = OAUTH_SCOPES.join(" ");

/** What each scope lets a client do, as the consent page and `oauth approve` tell the owner. */
export const SCOPE_MEANINGS: Readonly<Record<OAuthScope, string>> = {
  "motebit:read": "connect, list tools, resources and prompts, read the motebit's identity and what it may call",
  "motebit:tools": "call the served tools directly, within its trust",
  "motebit:task": "give the motebit tasks (motebit_task, motebit_query), receipted",
  "motebit:remember": "store and recall its own memories (motebit_remember, motebit_recall)",
};

function isScope(s: string): s is OAuthScope {
  return (OAUTH_SCOPES as readonly string[]).includes(s);
}

/**
 * A requested scope string, canonical; absent or blank means all four. null when it names a scope this server does
 * not know (RFC 6749 §4.1.2.1 invalid_scope), so nothing unknown is ever granted or shown as granted.
 */
export function parseScope(requested: string | null | undefined): string | null {
  const names = (requested ?? "").split(" ").filter((s) => s !== "");
  if (names.length === 0) return ALL_SCOPES;
  if (!names.every(isScope)) return null;
  return OAUTH_SCOPES.filter((s) => names.includes(s)).join(" ");
}

/** The scopes of a canonical (or any space-delimited) scope string. */
function scopesOf(scope: string): Set<string> {
  return new Set(scope.split(" "));
}

export function scopeIncludes(granted: string, needed: OAuthScope): boolean {
  return scopesOf(granted).has(needed);
}

/** Whether every scope of `narrow` is in `wide` (a refresh may narrow, never widen: RFC 6749 §6). */
export function isWithin(narrow: string, wide: string): boolean {
  const w = scopesOf(wide);
  return [...scopesOf(narrow)].every((s) => w.has(s));
}

/**
 * What a client asks for when it steps up: what it holds and what it needs, canonical. The MCP SDK v1 client
 * re-authorizes with exactly the challenge's scope, so it must keep what was granted (MCP 2025-11-25 step-up).
 */
export function scopeUnion(granted: string, needed: OAuthScope): string {
  const all = scopesOf(granted).add(needed);
  return OAUTH_SCOPES.filter((s) => all.has(s)).join(" ");
}

/** The scope an MCP method other than tools/call needs: connecting and the listings read; the rest (ping, tasks/*) none. */
export function methodScope(method: string): OAuthScope | null {
  const reads = method === "initialize" || method === "server/discover" || method === "completion/complete" || method.endsWith("/list") ||
    method.startsWith("resources/") || method.startsWith("prompts/");
  return reads ? "motebit:read" : null;
}
