// The motebit's key and identity as `serve` starts it. With --identity: the file must verify, and the key
// (beside it, or privateKeyPath) must be the key that signed it. Without: a service motebit whose key is
// kept in the data dir, generated on first run.
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { generateSeedHex, publicKeyFromSeed, verifyIdentityFile } from "motebit-edge/core";
import { CliError } from "./cli-error.js";
import { readKeyFile, writeKeyFile } from "./keyfile.js";
import { KEY_FILE } from "./locations.js";

export interface LocalIdentity {
  seedHex: string;
  /** The verified identity file text, or null for a motebit started without one. */
  identityFileText: string | null;
  keyPath: string;
}

function loadKey(path: string, warn: (line: string) => void): string {
  try {
    const { seedHex, warnings } = readKeyFile(path);
    warnings.forEach((w) => warn(`motebit: warning: ${w}`));
    return seedHex;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    throw new CliError(code ? `cannot read key file ${path}: ${code}` : (e as Error).message);
  }
}

function short(hex: string): string {
  return `${hex.slice(0, 16)}…`;
}

export async function loadLocalIdentity(o: {
  identityPath: string | null;
  privateKeyPath: string | null;
  dataDir: string;
  warn: (line: string) => void;
  /** Told when a new key was generated. */
  note: (line: string) => void;
}): Promise<LocalIdentity> {
  if (o.identityPath === null) {
    const keyPath = o.privateKeyPath ?? join(o.dataDir, KEY_FILE);
    if (!existsSync(keyPath)) {
      if (o.privateKeyPath !== null) throw new CliError(`privateKeyPath ${keyPath} (from the config file) does not exist`);
      writeKeyFile(keyPath, generateSeedHex());
      o.note(`motebit: generated a new key in ${keyPath} (mode 0600)`);
    }
    return { seedHex: loadKey(keyPath, o.warn), identityFileText: null, keyPath };
  }

  const idPath = resolve(o.identityPath);
  let text: string;
  try {
    text = readFileSync(idPath, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === "ENOENT") {
      throw new CliError(`no identity file at ${idPath}: make one with \`motebit-local init --dir ${dirname(idPath)}\` (or leave out --identity to serve with a key of its own)`);
    }
    throw new CliError(`cannot read identity file ${idPath}: ${code ?? (e as Error).message}`);
  }
  const verdict = await verifyIdentityFile(text);
  if (!verdict.valid || !verdict.publicKeyHex) {
    throw new CliError(`identity file ${idPath} does not verify: ${verdict.errors.join("; ")}`);
  }
  const keyPath = o.privateKeyPath ?? join(dirname(idPath), KEY_FILE);
  if (!existsSync(keyPath)) {
    throw new CliError(
      o.privateKeyPath !== null
        ? `privateKeyPath ${keyPath} (from the config file) does not exist`
        : `no private key for ${idPath}: expected ${keyPath} (init writes it there), or set "privateKeyPath" in a --config file`,
    );
  }
  const seedHex = loadKey(keyPath, o.warn);
  const publicKeyHex = await publicKeyFromSeed(seedHex);
  if (publicKeyHex !== verdict.publicKeyHex) {
    throw new CliError(
      `key mismatch: ${idPath} is signed by key ${short(verdict.publicKeyHex)} but ${keyPath} holds key ` +
        `${short(publicKeyHex)}; use the key that init wrote beside this identity file`,
    );
  }
  return { seedHex, identityFileText: text, keyPath };
}
