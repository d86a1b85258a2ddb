// The owner's memories live in <dataDir>/motebit.sqlite: a new serve process recalls what the last one stored.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { callText, connectStdio, initMotebit, tempDir } from "./helpers/local-cli.js";

describe("serve over stdio: memories survive a restart", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("recalls after a restart what was remembered before it", async () => {
    const identity = await initMotebit(tmp.dir);
    const first = await connectStdio(["--identity", identity]);
    const stored = await callText(first.client, "motebit_remember", { content: "The staging database lives in Frankfurt", sensitivity: "none" });
    expect(stored.isError).toBe(false);
    const firstId = (await callText(first.client, "motebit_identity")).text;
    await first.close();

    // The data dir defaults to the identity file's folder + "/.motebit", created on first start.
    const dataDir = join(tmp.dir, ".motebit");
    expect(statSync(dataDir).isDirectory()).toBe(true);
    expect(existsSync(join(dataDir, "motebit.sqlite"))).toBe(true);

    const second = await connectStdio(["--identity", identity]);
    try {
      const r = await callText(second.client, "motebit_recall", { query: "where is the staging database", limit: 3 });
      expect(r.isError).toBe(false);
      expect(r.text).toContain("The staging database lives in Frankfurt");
      expect((await callText(second.client, "motebit_identity")).text).toBe(firstId);
    } finally {
      await second.close();
    }
  });
});
