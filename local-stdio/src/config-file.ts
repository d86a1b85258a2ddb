// The --config JSON file. Secrets such as authToken come from it or from the environment (which wins, as for every
// setting), never from a flag, which would sit in shell history and `ps` output. Relative paths in it are resolved
// against its own folder.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import {
  type ConfigFile, configFileKeys, type EnvLike, readServerConfig, readSetting, type ServerConfig, type SettingName,
  SETTINGS, StartupError,
} from "motebit-edge/core";
import { CliError } from "./cli-error.js";
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
  /** The HTTP mode's settings, exactly the shape the edge reads (the environment wins over the file). */
  server: ServerConfig;
  /** The file as the settings readers take it (src/settings), for the settings read when serving starts (AI, relay); null when none. */
  file: ConfigFile | null;
}

/** Settings errors are one CliError line naming where the value came from. */
function asCliError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof StartupError ? new CliError(e.message) : e;
  }
}

/** No config file: the environment's settings, else the defaults. */
export function defaultConfig(env: EnvLike = {}): LocalConfig {
  return {
    path: null,
    privateKeyPath: null,
    dataDir: null,
    mcpServers: [],
    durability: "normal",
    file: null,
    server: asCliError(() => readServerConfig(env)),
  };
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
    // The environment wins over the file, as for every setting that has both.
    server: asCliError(() => readServerConfig(env, file)),
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
