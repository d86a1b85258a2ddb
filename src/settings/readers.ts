// The one set of readers every setting goes through: each takes what was found (a value and where it came from:
// an environment name, or "config file <path>: <key>") and returns the typed value or throws a StartupError that
// starts with that place.
import { bytesToHex, hexToBytes } from "../protocol/index.js";
import { normaliseOrigin } from "./origin.js";
import { parseKnownCallers, type KnownCallers } from "./known-callers.js";
import { hashStaticToken, parseStaticTokens, type StaticTokens } from "./static-tokens.js";
import { StartupError } from "./startup-error.js";

/** A value a setting was given, and where: `MOTEBIT_RATE_LIMIT`, or `config file /x/motebit.json: rateLimit`. */
export interface Found {
  value: unknown;
  where: string;
}

export type Reader<T> = (found: Found | null) => T;

function fail(f: Found, msg: string): never {
  throw new StartupError(`${f.where} ${msg}`);
}

/** Text, trimmed; null when unset. Blank text in a file is an error (in the environment it counts as unset). */
export const text: Reader<string | null> = (f) => {
  if (f === null) return null;
  if (typeof f.value !== "string" || f.value.trim() === "") return fail(f, "must be a non-empty string");
  return f.value.trim();
};

/** Text kept exactly as given (a whole document, such as an identity file). */
export const document: Reader<string | null> = (f) => {
  if (f === null) return null;
  if (typeof f.value !== "string" || f.value.trim() === "") return fail(f, "must be a non-empty string");
  return f.value;
};

/** A value another module parses (its errors name their own place), or undefined when unset. */
export const raw: Reader<unknown> = (f) => f?.value;

export function withDefault<T>(read: Reader<T | null>, fallback: T): Reader<T> {
  return (f) => read(f) ?? fallback;
}

export function oneOf<T extends string>(allowed: readonly T[]): Reader<T | null> {
  return (f) => {
    const v = text(f);
    if (v === null) return null;
    if (!(allowed as readonly string[]).includes(v)) return fail(f!, `must be one of ${allowed.join(", ")}, got ${JSON.stringify(v)}`);
    return v as T;
  };
}

/** A whole number from `min` to `max` (a number, or digits as text); `unit` says what it counts in the error. */
export function wholeNumber(min: number, max: number, unit: string): Reader<number | null> {
  return (f) => {
    if (f === null) return null;
    const v = f.value;
    const n = typeof v === "number" ? v : typeof v === "string" && /^\s*\d+\s*$/.test(v) ? Number(v) : NaN;
    if (!Number.isSafeInteger(n) || n < min || n > max) return fail(f, `must be a whole number of ${unit} from ${min} to ${max}, got ${JSON.stringify(v)}`);
    return n;
  };
}

/** 1/0 or true/false (the environment's text, or a JSON boolean in a file). */
export const flag: Reader<boolean> = (f) => {
  if (f === null) return false;
  const v = typeof f.value === "boolean" || typeof f.value === "number" || typeof f.value === "string" ? String(f.value).trim().toLowerCase() : "";
  if (v === "1" || v === "true") return true;
  if (v === "0" || v === "false") return false;
  return fail(f, `must be 1 or 0, got ${JSON.stringify(f.value)}`);
};

/** An http(s) URL without trailing slashes. */
export function httpUrl(example: string): Reader<string | null> {
  return (f) => {
    const v = text(f);
    if (v === null) return null;
    if (!isHttp(v)) return fail(f!, `must be an http(s) URL such as ${example}, got ${JSON.stringify(v)}`);
    return v.replace(/\/+$/, "");
  };
}

/** An http(s) base URL with no query or fragment; a trailing /mcp is dropped (the relay adds /mcp and /health itself). */
export const baseUrl: Reader<string | null> = (f) => {
  const v = text(f);
  if (v === null) return null;
  if (!isHttp(v)) return fail(f!, `must be an http(s) URL like https://relay.example.com, got ${JSON.stringify(v)}`);
  const u = new URL(v);
  if (u.search !== "" || u.hash !== "") return fail(f!, `must not carry a query or fragment, got ${JSON.stringify(v)}`);
  return (u.origin + u.pathname).replace(/\/+$/, "").replace(/\/mcp$/, "");
};

function isHttp(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:";
  } catch {
    return false;
  }
}

/** A 32-byte Ed25519 public key in hex, normalised to lower case. */
export const publicKey: Reader<string | null> = (f) => {
  const v = text(f);
  if (v === null) return null;
  try {
    return bytesToHex(hexToBytes(v, 32));
  } catch (e) {
    return fail(f!, `must be a 32-byte Ed25519 public key in hex: ${(e as Error).message}`);
  }
};

/** Browser origins: a comma-separated list (environment) or an array (file); each normalised. */
export const origins: Reader<string[]> = (f) => {
  if (f === null) return [];
  const list: unknown[] = typeof f.value === "string" ? f.value.split(",") : Array.isArray(f.value) ? f.value : fail(f, 'must be an array (or comma-separated text) of origins like "https://app.example.com"');
  return list
    .map((s) => (typeof s === "string" ? s.trim() : s))
    .filter((s) => s !== "")
    .map((s) => {
      const o = typeof s === "string" ? normaliseOrigin(s) : null;
      if (o === null) throw new StartupError(`${f.where}: ${JSON.stringify(s)} is not an origin like https://app.example.com`);
      return o;
    });
};

/** Pinned keys of other motebits: JSON text (a secret) or an object (a wrangler.toml table, a config file). */
export const knownCallers: Reader<KnownCallers> = (f) => (f === null ? new Map() : parseKnownCallers(f.value, f.where));

/** One static token, kept only as its SHA-256 hex; null when unset. Shorter than 16 characters is refused. */
export const staticTokenHash: Reader<string | null> = (f) => {
  const v = text(f);
  return v === null ? null : hashStaticToken(v, f!.where);
};

/** Named static tokens: JSON text (a secret) or an object (a config file); each kept only as its SHA-256. */
export const staticTokens: Reader<StaticTokens> = (f) => (f === null ? new Map() : parseStaticTokens(f.value, f.where));
