import { describe, expect, it } from "vitest";
import { createIdentityDoc, createSigner, signIdentityFile } from "../../../src/protocol/index.js";
import { loadHostIdentity } from "../../../src/host/identity.js";
import { StartupError } from "../../../src/settings/startup-error.js";
import keys from "../../fixtures/edge/keys.json";
import { memorySql } from "../helpers/sqlite.js";

const none = { privateKeyHex: null, identityFileText: null };

async function identityFileFor(seedHex: string): Promise<string> {
  const signer = await createSigner(seedHex);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type: "service", name: "edge-test", now: new Date(1_767_225_600_000) });
  return signIdentityFile(doc, signer);
}

async function startupError(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StartupError);
  return (e as Error).message;
}

describe("host identity", () => {
  it("with no key configured, generates one on first start and keeps it (and the device id) in SQLite", async () => {
    const sql = memorySql();
    const first = await loadHostIdentity(sql, none);
    const again = await loadHostIdentity(sql, none);
    expect(again.signer.publicKeyHex).toBe(first.signer.publicKeyHex);
    expect(again.motebitId).toBe(first.motebitId);
    expect(again.deviceId).toBe(first.deviceId);
    expect(first.deviceId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.identityFileText).toBeNull();
    const other = await loadHostIdentity(memorySql(), none);
    expect(other.signer.publicKeyHex).not.toBe(first.signer.publicKeyHex);
  });

  it("MOTEBIT_PRIVATE_KEY gives the key; the motebit_id is its sovereign id", async () => {
    const id = await loadHostIdentity(memorySql(), { privateKeyHex: keys.server.seed_hex, identityFileText: null });
    expect(id.signer.publicKeyHex).toBe(keys.server.public_key_hex);
    expect(id.motebitId).toBe(keys.server.sovereign_motebit_id);
  });

  it("an identity file signed by the configured key is verified and served", async () => {
    const text = await identityFileFor(keys.server.seed_hex);
    const id = await loadHostIdentity(memorySql(), { privateKeyHex: keys.server.seed_hex, identityFileText: text });
    expect(id.identityFileText).toBe(text);
    expect(id.motebitId).toBe(keys.server.sovereign_motebit_id);
  });

  it("an identity file signed by another key is a startup error naming both keys", async () => {
    const text = await identityFileFor(keys.known_caller.seed_hex);
    const message = await startupError(loadHostIdentity(memorySql(), { privateKeyHex: keys.server.seed_hex, identityFileText: text }));
    expect(message).toBe(
      `MOTEBIT_IDENTITY is signed by key ${keys.known_caller.public_key_hex.slice(0, 16)}…, but MOTEBIT_PRIVATE_KEY is key ` +
        `${keys.server.public_key_hex.slice(0, 16)}…: set MOTEBIT_PRIVATE_KEY to the seed that signed the identity file`,
    );
  });

  it("an identity file without MOTEBIT_PRIVATE_KEY cannot match the generated key", async () => {
    const text = await identityFileFor(keys.server.seed_hex);
    expect(await startupError(loadHostIdentity(memorySql(), { privateKeyHex: null, identityFileText: text }))).toMatch(
      /but the key generated on first start \(MOTEBIT_PRIVATE_KEY is not set\) is key/,
    );
  });

  it("a tampered identity file is a startup error saying the signature fails", async () => {
    const text = (await identityFileFor(keys.server.seed_hex)).replace('"edge-test"', '"edge-tost"');
    expect(await startupError(loadHostIdentity(memorySql(), { privateKeyHex: keys.server.seed_hex, identityFileText: text }))).toBe(
      "MOTEBIT_IDENTITY is not a valid signed identity file: identity file signature does not verify against identity.public_key",
    );
  });

  it("an identity file cut to one line (pasted into .dev.vars without backticks) says to wrap it in backticks; a whole bad file does not", async () => {
    const load = (identityFileText: string) => startupError(loadHostIdentity(memorySql(), { privateKeyHex: keys.server.seed_hex, identityFileText }));
    expect(await load("---")).toMatch(/\(it is one line, "---": a multi-line value in \.dev\.vars keeps only its first line unless it is wrapped in backticks/);
    const tampered = (await identityFileFor(keys.server.seed_hex)).replace('"edge-test"', '"edge-tost"');
    expect(await load(tampered)).not.toMatch(/backticks/);
  });

  it("a malformed private key is a startup error that names the setting once and says what is wrong", async () => {
    const error = (privateKeyHex: string) => startupError(loadHostIdentity(memorySql(), { privateKeyHex, identityFileText: null }));
    expect(await error("abcd")).toBe("MOTEBIT_PRIVATE_KEY must be a 32-byte Ed25519 seed as 64 hex chars, got 4 chars");
    expect(await error("zz".repeat(32))).toBe("MOTEBIT_PRIVATE_KEY must be a 32-byte Ed25519 seed as 64 hex chars, got a non-hex character");
    expect(await error("ab".repeat(64))).toBe(
      "MOTEBIT_PRIVATE_KEY is a 64-byte expanded key; expected the 32-byte Ed25519 seed (64 hex chars)",
    );
  });
});
