// The private key file: the 32-byte Ed25519 seed as 64 lowercase hex + "\n", readable by its owner only.
import { readFileSync, statSync } from "node:fs";
import { resolve } from "node:path";
import { hexToBytes } from "motebit-edge/core";
import { SECRET_FILE_MODE, writeSecretFile } from "./secret-file.js";

export const KEY_FILE_MODE = SECRET_FILE_MODE;

/** Write the seed as a new 0600 file renamed over the target (secret-file.ts): never half-written, never through a link. */
export function writeKeyFile(path: string, seedHex: string): void {
  hexToBytes(seedHex, 32);
  writeSecretFile(path, seedHex.toLowerCase() + "\n");
}

/**
 * Read a key file: 64 hex chars, surrounding whitespace ignored. Throws a clear Error otherwise.
 * `warnings` says when the file is readable by others (the key still loads; fix it with chmod 600).
 */
export function readKeyFile(path: string): { seedHex: string; warnings: string[] } {
  let text: string;
  try {
    text = readFileSync(path, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
    throw new Error(`no key file at ${resolve(path)}: give --key the path of your motebit.key, or make one with: npx motebit-local init --dir <folder>`);
  }
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
