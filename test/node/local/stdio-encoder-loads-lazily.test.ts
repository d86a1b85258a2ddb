// motebit-local's default embedder (sentence encoder + word table) loads its model lazily in a worker thread:
// `initialize` over stdio answers before anything loads, a memory tool that arrives first waits for the model
// and says so to a client that asked for progress, stderr says what loaded and how long it took, and the owner
// then recalls by meaning. One model load for the whole file.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callText, connectStdio, initMotebit, tempDir, type StdioSession } from "./helpers/local-cli.js";

const LOADED = /^motebit: sentence encoder loaded in \d+ ms \(model \d+ ms; resident memory now \d+ MiB\)$/m;

describe("serve over stdio with the default embedder", () => {
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

  it("answers initialize without loading the model, and names the embedder on stderr", () => {
    expect(s.stderr()).toContain("embedder: use-lite-512+local-sif-v4-356@0.7");
    expect(s.stderr()).not.toContain("loading the sentence encoder");
    expect(s.stderr()).not.toMatch(LOADED);
  });

  it("makes the first memory tool wait for the model, with progress to a client that asked for it", async () => {
    const progress: { progress: number; message?: string }[] = [];
    const r = (await s.client.callTool(
      { name: "motebit_remember", arguments: { content: "I am allergic to penicillin", sensitivity: "none" } },
      undefined,
      { onprogress: (p) => progress.push(p) },
    )) as { isError?: boolean; content: { text: string }[] };
    expect(r.isError ?? false).toBe(false);
    expect(progress.length).toBeGreaterThan(0);
    expect(progress[0].message).toBe("loading the sentence encoder (first use after start)");
    // MCP: progress grows with each notification.
    for (let i = 1; i < progress.length; i++) expect(progress[i].progress).toBeGreaterThan(progress[i - 1].progress);
    expect(s.stderr()).toMatch(LOADED);
  });

  it("recalls by meaning once loaded: a question that shares no word with the memory finds it first", async () => {
    for (const content of ["The ferry crossing takes four hours", "My passport expires next March"]) {
      expect((await callText(s.client, "motebit_remember", { content, sensitivity: "none" })).isError).toBe(false);
    }
    const r = await callText(s.client, "motebit_recall", { query: "which antibiotic must I avoid?", limit: 3 });
    expect(r.isError).toBe(false);
    // The results, then the identity tag on a line of its own.
    const hits = JSON.parse(r.text.slice(0, r.text.lastIndexOf("\n["))) as { content: string }[];
    expect(hits[0].content).toBe("I am allergic to penicillin");
    // Loaded once: no second load line.
    expect(s.stderr().match(new RegExp(LOADED.source, "gm"))).toHaveLength(1);
  });
});
