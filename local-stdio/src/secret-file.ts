// Files that hold a secret (a key, a token) are written one way: a new file, mode 0600, that never follows a
// symbolic link and is renamed over the old one, so a replaced secret is never written into a file others can
// read, never half-written, and never lands where a planted link points.
import { closeSync, constants, fchmodSync, fsyncSync, lstatSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { CliError } from "./cli-error.js";

export const SECRET_FILE_MODE = 0o600;

/** What is at `path` without following a link: "missing", "file", or throws (a link or anything else is refused). */
export function secretFileState(path: string): "missing" | "file" {
  let st;
  try {
    st = lstatSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return "missing";
    throw e;
  }
  if (st.isSymbolicLink()) throw new CliError(`${path} is a symbolic link; refusing to write a secret through it (remove it first)`);
  if (!st.isFile()) throw new CliError(`${path} is not a regular file; refusing to write a secret there`);
  return "file";
}

/** Write `text` to `path` as a new 0600 file renamed over whatever regular file was there. */
export function writeSecretFile(path: string, text: string): void {
  secretFileState(path);
  const tmp = join(dirname(path), `.${basename(path)}.${process.pid}.${Date.now()}.tmp`);
  // O_EXCL | O_NOFOLLOW: the temp file is ours and new, even if someone raced a link into its name.
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), SECRET_FILE_MODE);
  try {
    try {
      writeSync(fd, text);
      fchmodSync(fd, SECRET_FILE_MODE); // the umask may have narrowed it further; make it exactly 0600
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
