// Files the CLI writes into a folder that may already hold something (init --force, create --force) are written one
// way: a new file that never follows a symbolic link, renamed over the old one, so nothing lands where a planted
// link points and nothing is half-written. A secret (a key, a token) is such a file with mode 0600, so a replaced
// secret is never written into a file others can read.
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CliError } from "./cli-error.js";

export const SECRET_FILE_MODE = 0o600;

/** What is at `path` without following a link: "missing", "file", or throws (a link or anything else is refused). */
export function secretFileState(path: string): "missing" | "file" {
  return fileState(path, "a secret");
}

/** As secretFileState, for any file the CLI writes: `what` names it in the refusal. */
export function fileState(path: string, what = "a file"): "missing" | "file" {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
  if (st.isSymbolicLink()) throw new CliError(`${path} is a symbolic link; refusing to write ${what} through it (remove it first)`);
  if (!st.isFile()) throw new CliError(`${path} is not a regular file; refusing to write ${what} there`);
  return "file";
}

/** Write `text` to `path` as a new 0600 file renamed over whatever regular file was there. */
export function writeSecretFile(path: string, text: string): void {
  secretFileState(path);
  writeReplacing(path, text, SECRET_FILE_MODE, true);
}

/** Write `text` to `path` as a new file (0644 less the umask) renamed over whatever regular file was there; never through a link. */
export function writePlainFile(path: string, text: string): void {
  fileState(path);
  writeReplacing(path, text, 0o644, false);
}

/** A folder the CLI writes into: made if missing (`mode`), refused if it is a symbolic link or not a folder. */
export function ownFolder(path: string, mode = 0o755): void {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    mkdirSync(path, { recursive: true, mode });
    return;
  }
  if (st.isSymbolicLink()) throw new CliError(`${path} is a symbolic link; refusing to write files through it (remove it first)`);
  if (!st.isDirectory()) throw new CliError(`${path} is not a folder; refusing to write files into it`);
}

/** `exact`: the mode as given, whatever the umask (a secret's 0600); otherwise the umask applies as usual. */
function writeReplacing(path: string, text: string, mode: number, exact: boolean): void {
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  // O_EXCL | O_NOFOLLOW: the temp file is ours and new, even if someone raced a link into its name.
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), mode);
  try {
    try {
      writeSync(fd, text);
      if (exact) fchmodSync(fd, mode); // the umask may have narrowed it further; make it exactly 0600
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}
