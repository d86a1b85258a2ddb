// The HTTP surface's section of a host's settings (assembled with the others by host-settings.ts): who may call
// and how. Anything malformed is a StartupError naming its place.
import { readSetting, type SettingsSource } from "./read.js";
import type { KnownCallers } from "./known-callers.js";
import { DEFAULT_STATIC_TOKEN_NAME, matchStaticToken, type StaticTokens } from "./static-tokens.js";
import { StartupError } from "./startup-error.js";

export { DEFAULT_RATE_LIMIT_PER_MINUTE } from "./catalog.js";
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_SESSION_TTL_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS_PER_CALLER = 32;

export interface ServerConfig {
  /** MOTEBIT_AUTH_TOKENS plus MOTEBIT_AUTH_TOKEN (named "static"), hashed; empty = signed tokens only. */
  staticTokens: StaticTokens;
  /** MOTEBIT_KNOWN_CALLERS: pinned keys of other motebits. */
  knownCallers: KnownCallers;
  /** MOTEBIT_RELAY_TRUST: the pinned relay public key (64 hex), or null. */
  relayTrust: string | null;
  /** MOTEBIT_RELAY_ID: the relay's motebit_id; when set, only tokens whose mid is this are the relay's. */
  relayId: string | null;
  /** MOTEBIT_RELAY_FORWARD_TOKEN: the bearer the relay presents when it forwards a task, or null. */
  relayForwardToken: string | null;
  /** MOTEBIT_ALLOWED_ORIGINS: browser origins allowed besides our own and loopback. */
  allowedOrigins: string[];
  /** MOTEBIT_RATE_LIMIT: requests per minute per caller (burst of the same size); 0 = no limit. */
  rateLimitPerMinute: number;
  maxBodyBytes: number;
  sessionTtlMs: number;
  /** Live sessions per caller; an initialize beyond it evicts that caller's least recently used session. */
  maxSessionsPerCaller: number;
}

/** What the object needs to hold its key: MOTEBIT_PRIVATE_KEY and MOTEBIT_IDENTITY, both optional. */
export interface IdentitySecrets {
  privateKeyHex: string | null;
  identityFileText: string | null;
}

export function readServerConfig(src: SettingsSource): ServerConfig {
  const relayForwardToken = readSetting("relayForwardToken", src);
  return {
    staticTokens: staticTokensOf(readSetting("authToken", src), readSetting("authTokens", src), relayForwardToken),
    knownCallers: readSetting("knownCallers", src),
    relayTrust: readSetting("relayTrust", src),
    relayId: readSetting("relayId", src),
    relayForwardToken,
    allowedOrigins: readSetting("allowedOrigins", src),
    rateLimitPerMinute: readSetting("rateLimit", src),
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    sessionTtlMs: DEFAULT_SESSION_TTL_MS,
    maxSessionsPerCaller: DEFAULT_MAX_SESSIONS_PER_CALLER,
  };
}

export function readIdentitySecrets(src: SettingsSource): IdentitySecrets {
  return { privateKeyHex: readSetting("privateKey", src), identityFileText: readSetting("identity", src) };
}

/**
 * The named tokens with authToken as the one named "static". Refused at startup: that name given twice, and a
 * relay forward bearer equal to a static token.
 */
function staticTokensOf(authTokenSha256: string | null, named: StaticTokens, relayForwardToken: string | null): StaticTokens {
  const all = new Map(named);
  if (authTokenSha256 !== null) {
    if (all.has(DEFAULT_STATIC_TOKEN_NAME)) throw new StartupError(`MOTEBIT_AUTH_TOKEN is the token named "${DEFAULT_STATIC_TOKEN_NAME}" and MOTEBIT_AUTH_TOKENS names one too: give it once`);
    if ([...all.values()].some((t) => t.sha256 === authTokenSha256)) throw new StartupError("MOTEBIT_AUTH_TOKEN is also in MOTEBIT_AUTH_TOKENS: each caller needs its own token");
    all.set(DEFAULT_STATIC_TOKEN_NAME, { sha256: authTokenSha256, trust: "verified" });
  }
  refuseRelayForwardToken(relayForwardToken, all);
  return all;
}

/**
 * The one rule wherever static tokens meet the relay's forward bearer (a host's start-up, a fleet motebit's start,
 * the operator's create and PATCH): the bearer equal to one of them is refused, since whoever holds that token
 * would be served as the relay.
 */
export function refuseRelayForwardToken(relayForwardToken: string | null, tokens: StaticTokens): void {
  const same = relayForwardToken === null ? null : matchStaticToken(relayForwardToken, tokens);
  if (same !== null) {
    throw new StartupError(`MOTEBIT_RELAY_FORWARD_TOKEN equals a static token (the one named "${same[0]}"): its holders would be served as the relay; give each its own`);
  }
}
