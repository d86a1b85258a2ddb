// Changes "mcpServers" in the config file without touching anything else in it: every other key stays as it
// was (in its order), the file keeps its mode and owner, and the new text replaces the old in one rename, so a
// crash or a full disk leaves the old file whole.
import { randomBytes } from "node:crypto";
import { closeSync, existsSync, fchmodSync, fchownSync, fsyncSync, openSync, readFileSync, realpathSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { CliError } from "../cli-error.js";
import { readConfigFile } from "../config-file.js";
import { parseMcpServers } from "./config.js";

/** A new config file soon holds secrets (authToken, env, headers): only its owner may read it. */
const NEW_FILE_MODE = 0o600;

export interface ConfigForEdit {
  /** The file written to: the config path with symlinks resolved, so a linked config stays linked. */
  path: string;
  exists: boolean;
  raw: Record<string, unknown>;
}

/** The file as a JSON object, after the same checks serve makes (a broken file is not edited), or {} when it does not exist. */
export function loadConfigForEdit(path: string): ConfigForEdit {
  const abs = resolve(path);
  if (!existsSync(abs)) return { path: abs, exists: false, raw: {} };
  const real = realpathSync(abs);
  readConfigFile(real);
  return { path: real, exists: true, raw: JSON.parse(readFileSync(real, "utf8")) as Record<string, unknown> };
}

/** The "mcpServers" object of the file ({} when it has none). */
export function mcpServersOf(c: ConfigForEdit): Record<string, unknown> {
  const v = c.raw.mcpServers;
  return typeof v === "object" && v !== null && !Array.isArray(v) ? { ...(v as Record<string, unknown>) } : {};
}

/** Checks the new "mcpServers" as serve would, then writes the file with it (and everything else as it was). */
export function writeMcpServers(c: ConfigForEdit, servers: Record<string, unknown>): void {
  parseMcpServers(servers, dirname(c.path), (msg) => {
    throw new CliError(`config file ${c.path}: ${msg}`);
  });
  // A key that exists keeps its place in the spread; a new one goes last.
  writeAtomically(c.path, JSON.stringify({ ...c.raw, mcpServers: servers }, null, 2) + "\n", c.exists);
}

function writeAtomically(path: string, text: string, exists: boolean): void {
  const before = exists ? statSync(path) : null;
  const tmp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  let fd: number | null = null;
  try {
    fd = openSync(tmp, "wx", NEW_FILE_MODE);
    writeSync(fd, text);
    // The exact mode of the old file (the umask played no part in it), and its owner when we may set it.
    fchmodSync(fd, before === null ? NEW_FILE_MODE : before.mode & 0o7777);
    if (before !== null && process.getuid?.() === 0) fchownSync(fd, before.uid, before.gid);
    fsyncSync(fd);
    closeSync(fd);
    fd = null;
    renameSync(tmp, path);
  } catch (e) {
    if (fd !== null) closeSync(fd);
    try {
      unlinkSync(tmp);
    } catch {
      // never created, or already renamed
    }
    throw new CliError(`cannot write config file ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
}
