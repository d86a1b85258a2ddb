// Deployment settings, read once from an env-like record (wrangler vars and secrets, or the Node host's
// environment) into typed values. Anything malformed is a StartupError whose message names the variable.
import { bytesToHex, hexToBytes } from "../protocol/index.js";
import { parseKnownCallers, type KnownCallers } from "./known-callers.js";
import { normaliseOrigin } from "./origin.js";
import { StartupError } from "./startup-error.js";

export const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_SESSION_TTL_MS = 30 * 60_000;
export const DEFAULT_MAX_SESSIONS_PER_CALLER = 32;

export interface ServerConfig {
  /** MOTEBIT_AUTH_TOKEN: the static bearer token; null = none (signed tokens only). */
  authToken: string | null;
  /** A static token kept only as its SHA-256 hex (a fleet motebit's, src/fleet/profile.ts); absent elsewhere. */
  authTokenSha256?: string | null;
  /** MOTEBIT_KNOWN_CALLERS: pinned keys of other motebits. */
  knownCallers: KnownCallers;
  /** MOTEBIT_RELAY_TRUST: the pinned relay public key (64 hex), or null. */
  relayTrust: string | null;
  /** MOTEBIT_RELAY_ID: the relay's motebit_id; when set, only tokens whose mid is this are the relay's. */
  relayId: string | null;
  /** MOTEBIT_RELAY_FORWARD_TOKEN: the bearer the relay presents when it forwards a task (served as the relay, never the owner). */
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

type EnvLike = Record<string, unknown>;

function optionalString(env: EnvLike, name: string): string | null {
  const v = env[name];
  if (v === undefined || v === null) return null;
  if (typeof v !== "string") throw new StartupError(`${name} must be a string`);
  return v.trim() === "" ? null : v;
}

export function publicKeyVar(env: EnvLike, name: string): string | null {
  const v = optionalString(env, name);
  if (v === null) return null;
  try {
    return bytesToHex(hexToBytes(v.trim(), 32));
  } catch (e) {
    throw new StartupError(`${name} must be a 32-byte Ed25519 public key in hex: ${(e as Error).message}`);
  }
}

function originsVar(env: EnvLike, name: string): string[] {
  const v = optionalString(env, name);
  if (v === null) return [];
  return v
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
    .map((s) => {
      const o = normaliseOrigin(s);
      if (o === null) throw new StartupError(`${name}: "${s}" is not an origin like https://app.example.com`);
      return o;
    });
}

function rateLimitVar(env: EnvLike, name: string): number {
  const v = env[name];
  if (v === undefined || v === null || v === "") return DEFAULT_RATE_LIMIT_PER_MINUTE;
  const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new StartupError(`${name} must be a whole number of requests per minute (0 disables), got ${JSON.stringify(v)}`);
  }
  return n;
}

export function readServerConfig(env: EnvLike): ServerConfig {
  return {
    authToken: optionalString(env, "MOTEBIT_AUTH_TOKEN"),
    knownCallers: parseKnownCallers(env.MOTEBIT_KNOWN_CALLERS),
    relayTrust: publicKeyVar(env, "MOTEBIT_RELAY_TRUST"),
    relayId: optionalString(env, "MOTEBIT_RELAY_ID")?.trim() ?? null,
    relayForwardToken: optionalString(env, "MOTEBIT_RELAY_FORWARD_TOKEN")?.trim() ?? null,
    allowedOrigins: originsVar(env, "MOTEBIT_ALLOWED_ORIGINS"),
    rateLimitPerMinute: rateLimitVar(env, "MOTEBIT_RATE_LIMIT"),
    maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    sessionTtlMs: DEFAULT_SESSION_TTL_MS,
    maxSessionsPerCaller: DEFAULT_MAX_SESSIONS_PER_CALLER,
  };
}

export function readIdentitySecrets(env: EnvLike): IdentitySecrets {
  const key = optionalString(env, "MOTEBIT_PRIVATE_KEY");
  return { privateKeyHex: key === null ? null : key.trim(), identityFileText: optionalString(env, "MOTEBIT_IDENTITY") };
}
