// The motebit's key and ids as a host starts it: the configured seed, or one generated on first start and
// kept in the host's own SQLite (the embedded default); a signed identity file, if given, must be signed by
// that very key. device_id is a random UUID kept beside it, stable across restarts.
import type { SqlPort } from "../ports.js";
import { createSigner, generateSeedHex, sovereignMotebitId, verifyIdentityFile, type Signer, type SignerFactory } from "../protocol/index.js";
import type { IdentitySecrets } from "../settings/server-config.js";
import { StartupError } from "../settings/startup-error.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export interface HostIdentity {
  signer: Signer;
  motebitId: string;
  deviceId: string;
  /** The verified identity file, when one was configured. */
  identityFileText: string | null;
}

const HOST_META_SCHEMA: StoreSchema = {
  store: "host_meta",
  steps: [(sql) => void sql.run("CREATE TABLE IF NOT EXISTS host_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")],
};

const GENERATED_SEED = "generated_seed_hex";

/** Keeps a seed made elsewhere (a fleet motebit's, made at provisioning) where loadHostIdentity finds it. */
export function storeGeneratedSeed(sql: SqlPort, seedHex: string): void {
  migrate(sql, HOST_META_SCHEMA);
  sql.run("INSERT INTO host_meta (key, value) VALUES (?, ?)", GENERATED_SEED, seedHex);
}

/** The stored value of `key`, created with `make()` the first time. */
function storedValue(sql: SqlPort, key: string, make: () => string): string {
  const row = sql.all<{ value: string }>("SELECT value FROM host_meta WHERE key = ?", key)[0];
  if (row) return row.value;
  const value = make();
  sql.run("INSERT INTO host_meta (key, value) VALUES (?, ?)", key, value);
  return value;
}

/** Throws StartupError with a message that says what to fix. */
export async function loadHostIdentity(sql: SqlPort, secrets: IdentitySecrets, signerFor: SignerFactory = createSigner): Promise<HostIdentity> {
  migrate(sql, HOST_META_SCHEMA);
  const deviceId = storedValue(sql, "device_id", () => crypto.randomUUID());
  let signer: Signer;
  if (secrets.privateKeyHex !== null) {
    try {
      signer = await signerFor(secrets.privateKeyHex);
    } catch (e) {
      // The protocol's message names "private key"; here the user needs the setting's name, said once.
      throw new StartupError((e as Error).message.replace(/^private key/, "MOTEBIT_PRIVATE_KEY"));
    }
  } else {
    signer = await signerFor(storedValue(sql, GENERATED_SEED, generateSeedHex));
  }

  if (secrets.identityFileText === null) {
    return { signer, motebitId: await sovereignMotebitId(signer.publicKeyHex), deviceId, identityFileText: null };
  }
  const verdict = await verifyIdentityFile(secrets.identityFileText);
  if (!verdict.valid || !verdict.doc || !verdict.publicKeyHex) {
    throw new StartupError(`MOTEBIT_IDENTITY is not a valid signed identity file: ${verdict.errors.join("; ")}${cutShortHint(secrets.identityFileText)}`);
  }
  if (verdict.publicKeyHex !== signer.publicKeyHex) {
    const keySource = secrets.privateKeyHex !== null ? "MOTEBIT_PRIVATE_KEY" : "the key generated on first start (MOTEBIT_PRIVATE_KEY is not set)";
    throw new StartupError(
      `MOTEBIT_IDENTITY is signed by key ${verdict.publicKeyHex.slice(0, 16)}…, but ${keySource} is key ` +
        `${signer.publicKeyHex.slice(0, 16)}…: set MOTEBIT_PRIVATE_KEY to the seed that signed the identity file`,
    );
  }
  return { signer, motebitId: verdict.doc.motebit_id, deviceId, identityFileText: secrets.identityFileText };
}

/**
 * An identity file is many lines. One line only is what a .dev.vars / .env parser keeps of a multi-line value
 * pasted without quotes ("---", the first line): say how to keep it whole.
 */
function cutShortHint(text: string): string {
  if (text.trim().includes("\n")) return "";
  return (
    ` (it is one line, ${JSON.stringify(text.length > 40 ? text.slice(0, 40) + "…" : text)}: a multi-line value in .dev.vars keeps only its first line ` +
    "unless it is wrapped in backticks, MOTEBIT_IDENTITY=`<the whole motebit.md>`; deployed, use wrangler secret put MOTEBIT_IDENTITY < motebit.md)"
  );
}
