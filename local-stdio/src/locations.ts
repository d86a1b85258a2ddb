// Where a local motebit keeps things. The key sits beside the identity file (where `init` puts it) unless the
// config names another; state lives in the data dir: the flag, the config, the identity's folder + "/.motebit",
// else ~/.motebit.
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";

export const KEY_FILE = "motebit.key";
export const DB_FILE = "motebit.sqlite";

export function resolveDataDir(o: { flag?: string; configDataDir: string | null; identityPath: string | null }): string {
  if (o.flag !== undefined) return resolve(o.flag);
  if (o.configDataDir !== null) return o.configDataDir;
  if (o.identityPath !== null) return join(dirname(resolve(o.identityPath)), ".motebit");
  return join(homedir(), ".motebit");
}

export function databasePath(dataDir: string): string {
  return join(dataDir, DB_FILE);
}
