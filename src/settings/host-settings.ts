// A host's whole settings, assembled here only, from the catalog (catalog.ts) and the sources a host has: the
// environment (the Worker env at the edge, process.env for motebit-local), motebit-local's --config file (the
// environment wins over it), and a fleet motebit's own record (its identity and callers replace the deployment's).
// Both hosts call readHostSettings once at start-up; anything malformed is a StartupError naming its place.
import { readAiSettings, type AiSettings } from "./ai.js";
import { parseKnownCallers, type KnownCallers } from "./known-callers.js";
import type { SettingsSource } from "./read.js";
import { readRelaySettings, type RelaySettings } from "./relay.js";
import { readIdentitySecrets, readServerConfig, refuseRelayForwardToken, type IdentitySecrets, type ServerConfig } from "./server-config.js";
import type { StaticToken, StaticTokens } from "./static-tokens.js";

/** A fleet motebit's own settings as its profile row keeps them (src/fleet/profile.ts): tokens only as SHA-256. */
export interface FleetMotebitRecord {
  identityFileText: string;
  knownCallers: Record<string, unknown>;
  staticTokens: Record<string, StaticToken>;
}

/** The environment and motebit-local's --config file (read.ts), and at the edge a fleet motebit's record. */
export interface SettingsSources extends SettingsSource {
  fleet?: FleetMotebitRecord | null;
}

/** Which host reads: the edge (with or without a Workers AI binding) or motebit-local (where --direct may be given). */
export type HostKind = { host: "edge"; hasAiBinding: boolean } | { host: "local"; direct: boolean };

export interface HostSettings {
  /** Who may call over HTTP, and how. */
  server: ServerConfig;
  /** MOTEBIT_PRIVATE_KEY and MOTEBIT_IDENTITY, or a fleet motebit's own identity file; motebit-local keeps its key in files, so both are null there. */
  identity: IdentitySecrets;
  ai: AiSettings;
  relay: RelaySettings;
}

export type FleetCallers = { staticTokens: StaticTokens; knownCallers: KnownCallers };

export function readHostSettings(src: SettingsSources, kind: HostKind): HostSettings {
  const deployment: HostSettings = {
    server: readServerConfig(src),
    identity: kind.host === "edge" ? readIdentitySecrets(src) : { privateKeyHex: null, identityFileText: null },
    ai: readAiSettings(src, kind.host === "edge" ? { direct: false, hasAiBinding: kind.hasAiBinding } : { direct: kind.direct, hasAiBinding: false }),
    relay: readRelaySettings(src),
  };
  if (!src.fleet) return deployment;
  const own = asFleetMotebit(deployment, src.fleet);
  // The rule the deployment's own tokens met in readServerConfig, for this motebit's tokens.
  refuseRelayForwardToken(own.server.relayForwardToken, own.server.staticTokens);
  return own;
}

/**
 * The deployment's settings as a fleet motebit's: its own identity, callers and static tokens. The deployment's
 * key, static tokens, known callers and relay API token belong to the default motebit and never reach a fleet
 * motebit (towards the relay it signs with its own key); what the relay presents (its key, id and forward bearer),
 * the origins, limits and AI settings are shared. It replaces rather than merges, so the object applies it again
 * to the current record on every call.
 */
export function asFleetMotebit(deployment: HostSettings, fleet: FleetMotebitRecord): HostSettings {
  const callers = { staticTokens: new Map(Object.entries(fleet.staticTokens)), knownCallers: parseKnownCallers(fleet.knownCallers, "known_callers") };
  return {
    ...deployment,
    server: withFleetCallers(deployment.server, callers),
    identity: { privateKeyHex: null, identityFileText: fleet.identityFileText },
    relay: { ...deployment.relay, apiToken: null },
  };
}

/** The one rule for a fleet motebit's callers: the object's own settings, and the Worker's check against a kept copy. */
export function withFleetCallers<T extends FleetCallers>(deployment: T, own: FleetCallers): T {
  return { ...deployment, staticTokens: own.staticTokens, knownCallers: own.knownCallers };
}
