// Over real stdio, after a real init, the caller is the owner: what it remembers, it recalls.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callText, connectStdio, initMotebit, tempDir, type StdioSession } from "./helpers/local-cli.js";

describe("serve over stdio: the owner remembers and recalls", () => {
  const tmp = tempDir();
  let s: StdioSession;

  beforeAll(async () => {
    const identity = await initMotebit(tmp.dir);
    s = await connectStdio(["--identity", identity]);
  });
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it("announces itself on stderr as the owner's stdio server", () => {
    expect(s.stderr()).toMatch(/^motebit [0-9a-f-]{36} serving over stdio \(owner\)/m);
  });

  it("stores owner memories, including personal ones, and recalls them", async () => {
    const a = await callText(s.client, "motebit_remember", { content: "The deploy key rotates every 90 days", sensitivity: "none" });
    expect(a.isError).toBe(false);
    const b = await callText(s.client, "motebit_remember", { content: "My dentist appointment is on Friday", sensitivity: "personal" });
    expect(b.isError).toBe(false);

    const deploy = await callText(s.client, "motebit_recall", { query: "deploy key rotation", limit: 5 });
    expect(deploy.isError).toBe(false);
    expect(deploy.text).toContain("The deploy key rotates every 90 days");
    const dentist = await callText(s.client, "motebit_recall", { query: "dentist appointment", limit: 5 });
    expect(dentist.text).toContain("My dentist appointment is on Friday");
    // Every result carries the identity tag.
    expect(deploy.text).toMatch(/\[motebit:[0-9a-f]{8} key:[0-9a-f]{16}\]\s*$/);
  });
});
