// The owner's commands that read a motebit's stored state (memory, receipts) find it where `serve` keeps it.
import { existsSync } from "node:fs";
import { CliError } from "./cli-error.js";
import { defaultConfig, readConfigFile } from "./config-file.js";
import { flagString, type ParsedFlags } from "./flags.js";
import { databasePath, resolveDataDir } from "./locations.js";
import { openSqlite, type LocalSql } from "./sqlite-port.js";

/** The flags that say where the state is, as `serve` takes them. */
export const LOCATION_FLAGS = { identity: "string", "data-dir": "string", config: "string" } as const;

export const LOCATION_HELP = `  --identity FILE   the motebit started with serve --identity FILE (state in FILE's folder/.motebit)
  --data-dir DIR    its data dir (default: as serve picks it, else ~/.motebit)
  --config FILE     the config file serve used (its "dataDir")`;

export function openLocalState(flags: ParsedFlags): { sql: LocalSql; dataDir: string } {
  const configPath = flagString(flags, "config");
  const config = configPath === undefined ? defaultConfig() : readConfigFile(configPath);
  const dataDir = resolveDataDir({ flag: flagString(flags, "data-dir"), configDataDir: config.dataDir, identityPath: flagString(flags, "identity") ?? null });
  const path = databasePath(dataDir);
  if (!existsSync(path)) throw new CliError(`no motebit state at ${path} (run motebit-local serve with the same --identity/--data-dir first)`);
  return { sql: openSqlite(path), dataDir };
}
