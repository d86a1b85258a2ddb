// The private key file: the 32-byte Ed25519 seed as 64 lowercase hex + "\n", readable by its owner only.
import { chmodSync, openSync, closeSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from "node:fs";
import { dirname, join } from "node:path";
import { hexToBytes } from "motebit-edge/core";

export const KEY_FILE_MODE = 0o600;

/** Write the seed atomically with mode 0600 (a temp file renamed over the target, so a replaced key is never half-written or briefly world-readable). */
export function writeKeyFile(path: string, seedHex: string): void {
  hexToBytes(seedHex, 32);
  const tmp = join(dirname(path), `.motebit.key.${process.pid}.${Date.now()}.tmp`);
  const fd = openSync(tmp, "wx", KEY_FILE_MODE);
  try {
    writeSync(fd, seedHex.toLowerCase() + "\n");
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(tmp, KEY_FILE_MODE); // the umask may have narrowed it further; make it exactly 0600
    renameSync(tmp, path);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

/**
 * Read a key file: 64 hex chars, surrounding whitespace ignored. Throws a clear Error otherwise.
 * `warnings` says when the file is readable by others (the key still loads; fix it with chmod 600).
 */
export function readKeyFile(path: string): { seedHex: string; warnings: string[] } {
  const text = readFileSync(path, "utf8").trim();
  if (/^[0-9a-fA-F]{128}$/.test(text)) {
    throw new Error(`${path} holds a 64-byte expanded key; motebit key files hold the 32-byte seed (64 hex chars)`);
  }
  if (!/^[0-9a-fA-F]{64}$/.test(text)) throw new Error(`${path} is not a motebit key file (expected 64 hex chars)`);
  const warnings: string[] = [];
  if (process.platform !== "win32" && (statSync(path).mode & 0o077) !== 0) {
    warnings.push(`${path} is readable by other users; run: chmod 600 ${path}`);
  }
  return { seedHex: text.toLowerCase(), warnings };
}
