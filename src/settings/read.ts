// Reads settings from where a host keeps them: the environment (the Worker env, or process.env) and, for
// motebit-local, its config file. One rule for both: the environment wins; a config file holds a setting under
// its key or under its environment name (the latter first); blank environment values count as unset.
import type { Found } from "./readers.js";
import { SETTINGS, type SettingName, type SettingValue } from "./catalog.js";

export type EnvLike = Record<string, unknown>;

/** motebit-local's parsed config file, and how errors name it (e.g. "config file /x/motebit.json: "). */
export interface ConfigFile {
  fields: Record<string, unknown>;
  label: string;
}

export interface SettingsSource {
  env: EnvLike;
  /** Null or absent at the edge, which has none. */
  file?: ConfigFile | null;
}

function find(name: SettingName, src: SettingsSource): Found | null {
  const s = SETTINGS[name];
  if (s.env !== null) {
    const v = src.env[s.env];
    if (v !== undefined && v !== null && !(typeof v === "string" && v.trim() === "")) return { value: v, where: s.env };
  }
  if (src.file && s.host !== "edge") {
    const { fields, label } = src.file;
    for (const key of [s.env, s.key]) {
      if (key === null || !Object.hasOwn(fields, key)) continue;
      const v = fields[key];
      if (v !== undefined && v !== null) return { value: v, where: `${label}${key}` };
    }
  }
  return null;
}

/** One setting's value (its default when unset); a bad value is a StartupError naming where it came from. */
export function readSetting<K extends SettingName>(name: K, src: SettingsSource): SettingValue<K> {
  return SETTINGS[name].read(find(name, src)) as SettingValue<K>;
}

/** Whether a setting was given at all (environment or file). */
export function isSet(name: SettingName, src: SettingsSource): boolean {
  return find(name, src) !== null;
}

/** The keys a config file may hold: each local setting's key and environment name. */
export function configFileKeys(): string[] {
  const keys: string[] = [];
  for (const s of Object.values(SETTINGS)) {
    if (s.host === "edge") continue;
    for (const k of [s.key, s.env]) if (k !== null && !keys.includes(k)) keys.push(k);
  }
  return keys;
}
