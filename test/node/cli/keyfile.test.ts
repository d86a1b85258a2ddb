import { chmodSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { generateSeedHex } from "../../../src/protocol/index.js";
import { readKeyFile, writeKeyFile } from "../../../local-stdio/src/keyfile.js";
import { tempDir } from "./run-cli.js";

describe("key file", () => {
  it("writes 64 hex + newline with mode 0600, replacing an existing file's looser mode", () => {
    const path = join(tempDir(), "motebit.key");
    writeFileSync(path, "old", { mode: 0o644 });
    const seed = generateSeedHex();
    writeKeyFile(path, seed);
    expect(readFileSync(path, "utf8")).toBe(seed + "\n");
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readKeyFile(path)).toEqual({ seedHex: seed, warnings: [] });
  });

  it("refuses to write something that is not a seed", () => {
    expect(() => writeKeyFile(join(tempDir(), "k"), "abc")).toThrow("expected 32 bytes (64 hex chars), got 3 chars");
  });

  it("reads with surrounding whitespace, warns when others can read it", () => {
    const path = join(tempDir(), "motebit.key");
    const seed = generateSeedHex().toUpperCase();
    writeFileSync(path, `  ${seed}\r\n`, { mode: 0o644 });
    chmodSync(path, 0o644);
    expect(readKeyFile(path)).toEqual({ seedHex: seed.toLowerCase(), warnings: [`${path} is readable by other users; run: chmod 600 ${path}`] });
  });

  it("refuses expanded keys and other content with a clear error", () => {
    const dir = tempDir();
    const expanded = join(dir, "expanded.key");
    writeFileSync(expanded, "ab".repeat(64), { mode: 0o600 });
    expect(() => readKeyFile(expanded)).toThrow(`${expanded} holds a 64-byte expanded key; motebit key files hold the 32-byte seed (64 hex chars)`);
    const other = join(dir, "other.key");
    writeFileSync(other, "-----BEGIN PRIVATE KEY-----", { mode: 0o600 });
    expect(() => readKeyFile(other)).toThrow(`${other} is not a motebit key file (expected 64 hex chars)`);
  });
});
