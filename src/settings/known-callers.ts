// MOTEBIT_KNOWN_CALLERS: other motebits whose keys this server pins, each with the trust it grants them.
import type { CallerTrust } from "../principal.js";
import { bytesToHex, hexToBytes } from "../protocol/index.js";
import { StartupError } from "./startup-error.js";

export interface KnownCaller {
  publicKeyHex: string;
  trust: CallerTrust;
}

/** motebit_id → pinned key and trust. */
export type KnownCallers = ReadonlyMap<string, KnownCaller>;

const TRUST_LEVELS: readonly CallerTrust[] = ["first_contact", "verified", "trusted", "blocked"];

/** A setting given as JSON text (the environment) or an already-parsed object (a config file, wrangler.toml, a fleet body). */
export function jsonObjectSetting(value: unknown, name: string, shape: string): Record<string, unknown> {
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch (e) {
      throw new StartupError(`${name} is not valid JSON (${(e as Error).message})`);
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new StartupError(`${name} must be a JSON object ${shape}`);
  return parsed as Record<string, unknown>;
}

/** `trust` as a CallerTrust, or a StartupError naming `where`. */
export function callerTrustSetting(trust: unknown, where: string): CallerTrust {
  if (!TRUST_LEVELS.includes(trust as CallerTrust)) {
    throw new StartupError(`${where}.trust must be one of ${TRUST_LEVELS.join(", ")}, got ${JSON.stringify(trust)}`);
  }
  return trust as CallerTrust;
}

/**
 * Parses `{"<motebit_id>": {"public_key": "<64 hex>", "trust": "first_contact|verified|trusted|blocked"}}`,
 * given as JSON text (a .dev.vars secret) or as an already-parsed object (a wrangler.toml table).
 * Absent or empty means no known callers. `trust` defaults to first_contact. Throws StartupError naming the bad entry.
 */
export function parseKnownCallers(value: unknown, name = "MOTEBIT_KNOWN_CALLERS"): KnownCallers {
  if (value === undefined || value === null || (typeof value === "string" && value.trim() === "")) return new Map();
  const parsed = jsonObjectSetting(value, name, `{"<motebit_id>": {"public_key": "<hex>", "trust": "…"}}`);
  const callers = new Map<string, KnownCaller>();
  for (const [motebitId, entry] of Object.entries(parsed)) {
    const where = `${name}["${motebitId}"]`;
    if (motebitId === "") throw new StartupError(`${name} has an empty motebit_id key`);
    if (typeof entry !== "object" || entry === null || Array.isArray(entry)) {
      throw new StartupError(`${where} must be an object with "public_key" and "trust"`);
    }
    const { public_key, trust = "first_contact" } = entry as Record<string, unknown>;
    let publicKeyHex: string;
    try {
      publicKeyHex = bytesToHex(hexToBytes(public_key as string, 32));
    } catch (e) {
      throw new StartupError(`${where}.public_key must be a 32-byte Ed25519 public key in hex: ${(e as Error).message}`);
    }
    callers.set(motebitId, { publicKeyHex, trust: callerTrustSetting(trust, where) });
  }
  return callers;
}
