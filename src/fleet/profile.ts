// A fleet motebit's own record, kept in its object's SQLite beside its key: its name, signed identity file and
// the caller settings the operator gave it. No row, no motebit: reading never creates anything, so an object a
// stranger touches stays empty.
import type { SqlPort } from "../ports.js";
import { createIdentityDoc, createSigner, generateSeedHex, signIdentityFile } from "../protocol/index.js";
import type { ServerConfig } from "../settings/server-config.js";
import { storeGeneratedSeed } from "../host/identity.js";
import type { AuthSettings } from "../server/auth.js";
import { parseKnownCallers, type KnownCallers } from "../settings/known-callers.js";
import type { FleetSettingsPatch, FleetSpec } from "./spec.js";

export interface FleetProfile {
  name: string;
  identityFileText: string;
  knownCallers: Record<string, unknown>;
  authTokenSha256: string | null;
  tools: string[] | null;
  createdAt: number;
  /** New at provisioning and at every change: a Worker holding settings with another tag holds stale ones. */
  settingsTag: string;
}

type Row = {
  name: string;
  identity_file: string;
  known_callers: string;
  auth_token_sha256: string | null;
  tools: string | null;
  created_at: number;
  settings_tag: string;
};

export function readFleetProfile(sql: SqlPort): FleetProfile | null {
  const table = sql.all<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'fleet_profile'")[0];
  if (table.n === 0) return null;
  const row = sql.all<Row>("SELECT * FROM fleet_profile LIMIT 1")[0];
  if (!row) return null;
  return {
    name: row.name,
    identityFileText: row.identity_file,
    knownCallers: JSON.parse(row.known_callers) as Record<string, unknown>,
    authTokenSha256: row.auth_token_sha256,
    tools: row.tools === null ? null : (JSON.parse(row.tools) as string[]),
    createdAt: row.created_at,
    settingsTag: row.settings_tag,
  };
}

/** Makes the key here, signs the identity file with it and keeps both; the seed never leaves this SQLite. */
export async function provisionFleetProfile(sql: SqlPort, spec: FleetSpec, now: Date): Promise<FleetProfile> {
  const seed = generateSeedHex();
  const signer = await createSigner(seed);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type: spec.type, name: spec.displayName ?? spec.name, now });
  doc.governance = { ...spec.governance };
  const identityFileText = await signIdentityFile(doc, signer);
  const profile: FleetProfile = {
    name: spec.name,
    identityFileText,
    knownCallers: spec.knownCallers,
    authTokenSha256: spec.authTokenSha256,
    tools: spec.tools,
    createdAt: now.getTime(),
    settingsTag: crypto.randomUUID(),
  };
  sql.transaction(() => {
    sql.run(
      "CREATE TABLE IF NOT EXISTS fleet_profile (name TEXT PRIMARY KEY, identity_file TEXT NOT NULL, known_callers TEXT NOT NULL, auth_token_sha256 TEXT, tools TEXT, created_at INTEGER NOT NULL, settings_tag TEXT NOT NULL)",
    );
    storeGeneratedSeed(sql, seed);
    sql.run(
      "INSERT INTO fleet_profile (name, identity_file, known_callers, auth_token_sha256, tools, created_at, settings_tag) VALUES (?, ?, ?, ?, ?, ?, ?)",
      profile.name, profile.identityFileText, JSON.stringify(profile.knownCallers), profile.authTokenSha256,
      profile.tools === null ? null : JSON.stringify(profile.tools), profile.createdAt, profile.settingsTag,
    );
  });
  return profile;
}

export function updateFleetProfile(sql: SqlPort, current: FleetProfile, patch: FleetSettingsPatch): FleetProfile {
  const next: FleetProfile = {
    ...current,
    ...(patch.knownCallers !== undefined ? { knownCallers: patch.knownCallers } : {}),
    ...(patch.authTokenSha256 !== undefined ? { authTokenSha256: patch.authTokenSha256 } : {}),
    ...(patch.tools !== undefined ? { tools: patch.tools } : {}),
    settingsTag: crypto.randomUUID(),
  };
  sql.run(
    "UPDATE fleet_profile SET known_callers = ?, auth_token_sha256 = ?, tools = ?, settings_tag = ? WHERE name = ?",
    JSON.stringify(next.knownCallers), next.authTokenSha256, next.tools === null ? null : JSON.stringify(next.tools), next.settingsTag, next.name,
  );
  return next;
}

/**
 * The deployment's settings as this motebit's: its own callers and static token. The deployment's static token
 * and known callers belong to the default motebit and never reach a fleet motebit; what the relay presents (its
 * key, id and forward bearer) is shared, since every fleet motebit registers with the deployment's relay.
 */
export function fleetServerConfig(deployment: ServerConfig, p: FleetProfile): ServerConfig {
  return withFleetCallers(deployment, { authTokenSha256: p.authTokenSha256, knownCallers: parseKnownCallers(p.knownCallers, "known_callers") });
}

/** The one rule for a fleet motebit's caller settings: the object's own config, and the Worker's check against a kept copy. */
export function withFleetCallers<T extends AuthSettings>(deployment: T, own: FleetCallers): T {
  return { ...deployment, authToken: null, authTokenSha256: own.authTokenSha256, knownCallers: own.knownCallers };
}

export type FleetCallers = { authTokenSha256: string | null; knownCallers: KnownCallers };
