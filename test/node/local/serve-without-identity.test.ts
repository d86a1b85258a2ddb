// Without --identity, serve is a service motebit whose key is generated in the data dir on first run (0600)
// and reused on every later run.
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { publicKeyFromSeed, sovereignMotebitId } from "../../../src/protocol/index.js";
import { callText, connectStdio, tempDir } from "./helpers/local-cli.js";

describe("serve without an identity file", () => {
  const tmp = tempDir();
  const dataDir = join(tmp.dir, "state", "nested");
  afterAll(() => tmp.cleanup());

  it("creates the data dir, generates a 0600 key there once, and keeps its motebit_id", async () => {
    const first = await connectStdio(["--data-dir", dataDir]);
    expect(first.stderr()).toContain(`generated a new key in ${join(dataDir, "motebit.key")} (mode 0600)`);
    const summary = JSON.parse((await callText(first.client, "motebit_identity")).text.replace(/\n\[motebit:[^\]]*\]\s*$/, ""));
    await first.close();

    const keyPath = join(dataDir, "motebit.key");
    expect(statSync(keyPath).mode & 0o777).toBe(0o600);
    const seed = readFileSync(keyPath, "utf8").trim();
    expect(seed).toMatch(/^[0-9a-f]{64}$/);
    const id = await sovereignMotebitId(await publicKeyFromSeed(seed));
    expect(JSON.stringify(summary)).toContain(id);
    expect(first.stderr()).toContain(`motebit ${id} serving over stdio (owner)`);

    const second = await connectStdio(["--data-dir", dataDir]);
    try {
      expect(second.stderr()).not.toContain("generated a new key");
      expect(second.stderr()).toContain(`motebit ${id} serving over stdio (owner)`);
      expect(readFileSync(keyPath, "utf8").trim()).toBe(seed);
    } finally {
      await second.close();
    }
  });
});
