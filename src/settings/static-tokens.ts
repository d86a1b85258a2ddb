// Named static bearer tokens (authToken, authTokens, a fleet motebit's auth_token/auth_tokens): each name is its own
// caller `static:<name>` with its own trust. Only the token's SHA-256 is kept; the clear token never leaves the parser.
import type { CallerTrust } from "../principal.js";
import { constantTimeEqual, sha256HexSync } from "../protocol/index.js";
import { callerTrustSetting, jsonObjectSetting } from "./known-callers.js";
import { StartupError } from "./startup-error.js";

export interface StaticToken {
  /** Lowercase hex SHA-256 of the token. */
  sha256: string;
  trust: CallerTrust;
}

/** name → the token's hash and the trust it grants. */
export type StaticTokens = ReadonlyMap<string, StaticToken>;

/** `authToken` on its own is the token of this name. */
export const DEFAULT_STATIC_TOKEN_NAME = "static";
export const MIN_STATIC_TOKEN_CHARS = 16;
/** Names appear in caller ids, audit rows and receipts: short and plain. */
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export const STATIC_CALLER_PREFIX = "static:";

export function staticCallerId(name: string): string {
  return `${STATIC_CALLER_PREFIX}${name}`;
}

/**
 * Which token of a name proved a caller: a prefix of its hash, kept in the principal so that work and sessions
 * opened under one token are not the next one's after a rotation.
 */
export function staticTokenTag(t: StaticToken): string {
  return t.sha256.slice(0, 16);
}

/** One clear token checked and hashed; `where` names it in the error. */
export function hashStaticToken(token: unknown, where: string): string {
  if (typeof token !== "string" || token.trim().length < MIN_STATIC_TOKEN_CHARS) {
    throw new StartupError(`${where} must be a string of at least ${MIN_STATIC_TOKEN_CHARS} characters`);
  }
  return sha256HexSync(token.trim());
}

/**
 * `{"<name>": "<token>"}` or `{"<name>": {"token": "<token>", "trust": "first_contact|verified|trusted|blocked"}}`
 * (trust defaults to verified), as JSON text (the environment) or an object (a config file, a fleet body).
 */
export function parseStaticTokens(value: unknown, name: string): Map<string, StaticToken> {
  const parsed = jsonObjectSetting(value, name, `{"<name>": {"token": "<at least ${MIN_STATIC_TOKEN_CHARS} characters>", "trust": "verified"}}`);
  const tokens = new Map<string, StaticToken>();
  for (const [tokenName, entry] of Object.entries(parsed)) {
    const where = `${name}["${tokenName}"]`;
    if (!NAME.test(tokenName)) throw new StartupError(`${where}: a token name is 1-64 characters of A-Z, a-z, 0-9, _, . and -`);
    const { token, trust = "verified" } = typeof entry === "string" ? { token: entry } : ((entry ?? {}) as Record<string, unknown>);
    const checked = callerTrustSetting(trust, where);
    const sha256 = hashStaticToken(token, typeof entry === "string" ? where : `${where}.token`);
    tokens.set(tokenName, { sha256, trust: checked });
  }
  const hashes = [...tokens.values()].map((t) => t.sha256);
  if (new Set(hashes).size !== hashes.length) throw new StartupError(`${name} gives the same token under two names: each caller needs its own`);
  return tokens;
}

/** The name and entry `presented` matches, its hash compared in constant time against every entry (no early exit), or null. */
export function matchStaticToken(presented: string, tokens: StaticTokens): [string, StaticToken] | null {
  const hash = sha256HexSync(presented);
  let found: [string, StaticToken] | null = null;
  for (const entry of tokens) if (constantTimeEqual(hash, entry[1].sha256)) found = entry;
  return found;
}
