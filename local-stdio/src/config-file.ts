// The --config JSON file. Secrets such as authToken come from it or from the environment (which wins, as for every
// setting), never from a flag, which would sit in shell history and `ps` output. Relative paths in it are resolved
// against its own folder.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  type ConfigFile, configFileKeys, type EnvLike, type HostSettings, readHostSettings, readSetting, type SettingName, SETTINGS,
} from "motebit-edge/core";
import { asCliError, CliError } from "./cli-error.js";
import { unknownField } from "./unknown-field.js";
import { mcpServersHoldSecrets, parseMcpServers, type McpServerConfig } from "./mcp-servers/config.js";
import type { Durability } from "./sqlite-port.js";

export interface LocalConfig {
  /** Absolute path of the config file, or null when none was given. */
  path: string | null;
  privateKeyPath: string | null;
  dataDir: string | null;
  /** The owner's MCP servers (stdio only): their tools join the registry as localOnly tools. */
  mcpServers: McpServerConfig[];
  /** "full" fsyncs every commit (survives a power loss); "normal" (default) survives a process crash only. */
  durability: Durability;
  /** The file as the settings readers take it (src/settings), for the host's settings read when serving starts; null when none. */
  file: ConfigFile | null;
}

/** No config file: the defaults (serving still reads the environment's settings: localSettings). */
export function defaultConfig(): LocalConfig {
  return { path: null, privateKeyPath: null, dataDir: null, mcpServers: [], durability: "normal", file: null };
}

/**
 * The host's whole settings on this machine (src/settings/host-settings.ts: HTTP callers, AI, relay), the
 * environment winning over the file; one CliError line naming the value when one is bad.
 */
export function localSettings(config: LocalConfig, env: EnvLike, direct: boolean): HostSettings {
  return asCliError(() => readHostSettings({ env, file: config.file }, { host: "local", direct }));
}

/** Reads and checks the file; every problem is a CliError naming the file and the field. `warn` gets advice that does not stop start-up. */
export function readConfigFile(path: string, warn: (line: string) => void = () => {}, env: EnvLike = {}): LocalConfig {
  const abs = resolve(path);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (e) {
    throw new CliError(`cannot read config file ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const fail = (msg: string): never => {
    throw new CliError(`config file ${abs}: ${msg}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail("must be a JSON object");
  const o = raw as Record<string, unknown>;
  const keys = configFileKeys();
  const unknown = Object.keys(o).filter((k) => !keys.includes(k));
  if (unknown.length) fail(unknownField(unknown[0], keys));

  const file: ConfigFile = { fields: o, label: `config file ${abs}: ` };
  const base = dirname(abs);
  const src = { env, file };
  const pathField = (name: "privateKeyPath" | "dataDir"): string | null => {
    const v = asCliError(() => readSetting(name, src));
    return v === null ? null : resolve(base, v);
  };
  const cfg: LocalConfig = {
    path: abs,
    privateKeyPath: pathField("privateKeyPath"),
    dataDir: pathField("dataDir"),
    mcpServers: parseMcpServers(o.mcpServers, base, fail),
    durability: asCliError(() => readSetting("durability", src)),
    file,
  };
  // Every setting is checked now, as it will be read (the environment's value hiding the file's), so a bad file
  // is refused before anything starts.
  asCliError(() => {
    for (const name of Object.keys(SETTINGS) as SettingName[]) if (SETTINGS[name].host !== "edge") readSetting(name, src);
  });
  // Every secret setting the catalog names, under either of its names in the file, and the MCP servers' env/headers.
  const secretNames = (Object.keys(SETTINGS) as SettingName[])
    .filter((name) => SETTINGS[name].secret)
    .flatMap((name) => [SETTINGS[name].key, SETTINGS[name].env])
    .filter((k): k is string => k !== null);
  const secret = secretNames.find((k) => o[k] !== undefined && o[k] !== null) ?? (mcpServersHoldSecrets(cfg.mcpServers) ? "mcpServers env or headers" : null);
  if (secret !== null && (statSync(abs).mode & 0o077) !== 0 && process.platform !== "win32") {
    warn(`motebit: warning: ${abs} holds ${secret} but other users can read it (chmod 600 ${abs})`);
  }
  return cfg;
}
