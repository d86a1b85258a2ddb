// localOnly tools from a --tools module are the owner's: listed and callable over stdio.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callText, connectStdio, initMotebit, tempDir, writeToolsModule, type StdioSession } from "./helpers/local-cli.js";

describe("serve over stdio: localOnly tools", () => {
  const tmp = tempDir();
  let s: StdioSession;

  beforeAll(async () => {
    s = await connectStdio(["--identity", await initMotebit(tmp.dir), "--tools", writeToolsModule(tmp.dir)]);
  });
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it("lists the localOnly tool beside the served one", async () => {
    const names = (await s.client.listTools()).tools.map((t) => t.name);
    expect(names).toContain("shout");
    expect(names).toContain("read_diary");
  });

  it("runs the localOnly tool for the owner, identity-tagged", async () => {
    const r = await callText(s.client, "read_diary", { day: "monday" });
    expect(r.isError).toBe(false);
    expect(r.text).toContain("diary for monday: walked the dog");
    expect(r.text).toMatch(/\[motebit:[0-9a-f]{8} key:[0-9a-f]{16}\]\s*$/);
  });

  it("motebit_tools lists it as callable", async () => {
    const r = await callText(s.client, "motebit_tools");
    expect(r.text).toContain("read_diary");
  });
});
