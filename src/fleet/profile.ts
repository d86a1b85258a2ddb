// A fleet motebit's own record, kept in its object's SQLite beside its key: its name, signed identity file and
// the caller settings the operator gave it. No row, no motebit: reading never creates anything, so an object a
// stranger touches stays empty.
import type { SqlPort } from "../ports.js";
import { createIdentityDoc, createSigner, generateSeedHex, signIdentityFile } from "../protocol/index.js";
import { storeGeneratedSeed } from "../host/identity.js";
import { DEFAULT_STATIC_TOKEN_NAME, type StaticToken } from "../settings/static-tokens.js";
import type { FleetSettingsPatch, FleetSpec } from "./spec.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export interface FleetProfile {
  name: string;
  identityFileText: string;
  knownCallers: Record<string, unknown>;
  /** Named static tokens: name → SHA-256 and trust (never the token). */
  staticTokens: Record<string, StaticToken>;
  tools: string[] | null;
  createdAt: number;
  /** New at provisioning and at every change: a Worker holding settings with another tag holds stale ones. */
  settingsTag: string;
}

type Row = {
  name: string;
  identity_file: string;
  known_callers: string;
  /** Rows made before named tokens: the one token, named "static". */
  auth_token_sha256: string | null;
  /** JSON of FleetProfile.staticTokens; absent on rows made before named tokens. */
  static_tokens?: string | null;
  tools: string | null;
  created_at: number;
  settings_tag: string;
};

const PROFILE_SCHEMA: StoreSchema = {
  store: "fleet_profile",
  steps: [
    (sql) =>
      void sql.run(
        "CREATE TABLE IF NOT EXISTS fleet_profile (name TEXT PRIMARY KEY, identity_file TEXT NOT NULL, known_callers TEXT NOT NULL, auth_token_sha256 TEXT, tools TEXT, created_at INTEGER NOT NULL, settings_tag TEXT NOT NULL)",
      ),
    // 2: several named static tokens (issue 25); a row from before keeps its one token as the token named "static".
    (sql) => void sql.run("ALTER TABLE fleet_profile ADD COLUMN static_tokens TEXT"),
  ],
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
    staticTokens: storedStaticTokens(row),
    tools: row.tools === null ? null : (JSON.parse(row.tools) as string[]),
    createdAt: row.created_at,
    settingsTag: row.settings_tag,
  };
}

function storedStaticTokens(row: Row): Record<string, StaticToken> {
  if (row.static_tokens !== undefined && row.static_tokens !== null) return JSON.parse(row.static_tokens) as Record<string, StaticToken>;
  return row.auth_token_sha256 === null ? {} : { [DEFAULT_STATIC_TOKEN_NAME]: { sha256: row.auth_token_sha256, trust: "verified" } };
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
    staticTokens: spec.staticTokens,
    tools: spec.tools,
    createdAt: now.getTime(),
    settingsTag: crypto.randomUUID(),
  };
  sql.transaction(() => {
    migrate(sql, PROFILE_SCHEMA);
    storeGeneratedSeed(sql, seed);
    sql.run(
      "INSERT INTO fleet_profile (name, identity_file, known_callers, static_tokens, tools, created_at, settings_tag) VALUES (?, ?, ?, ?, ?, ?, ?)",
      profile.name, profile.identityFileText, JSON.stringify(profile.knownCallers), JSON.stringify(profile.staticTokens),
      profile.tools === null ? null : JSON.stringify(profile.tools), profile.createdAt, profile.settingsTag,
    );
  });
  return profile;
}

export function updateFleetProfile(sql: SqlPort, current: FleetProfile, patch: FleetSettingsPatch): FleetProfile {
  const next: FleetProfile = {
    ...current,
    ...(patch.knownCallers !== undefined ? { knownCallers: patch.knownCallers } : {}),
    ...(patch.staticTokens !== undefined ? { staticTokens: withTokenChanges(current.staticTokens, patch.staticTokens) } : {}),
    ...(patch.tools !== undefined ? { tools: patch.tools } : {}),
    settingsTag: crypto.randomUUID(),
  };
  migrate(sql, PROFILE_SCHEMA);
  sql.run(
    "UPDATE fleet_profile SET known_callers = ?, auth_token_sha256 = NULL, static_tokens = ?, tools = ?, settings_tag = ? WHERE name = ?",
    JSON.stringify(next.knownCallers), JSON.stringify(next.staticTokens), next.tools === null ? null : JSON.stringify(next.tools), next.settingsTag, next.name,
  );
  return next;
}

function withTokenChanges(current: Record<string, StaticToken>, changes: Record<string, StaticToken | null>): Record<string, StaticToken> {
  const next = { ...current };
  for (const [name, t] of Object.entries(changes)) {
    if (t === null) delete next[name];
    else next[name] = t;
  }
  return next;
}
