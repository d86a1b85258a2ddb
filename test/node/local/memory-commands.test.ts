// motebit-local memory list|forget|export: the owner's view of stored memories, JSON on stdout.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { callText, connectStdio, initMotebit, runCli, tempDir } from "./helpers/local-cli.js";

describe("motebit-local memory", () => {
  const tmp = tempDir();
  let identity: string;
  const ids: string[] = [];

  beforeAll(async () => {
    identity = await initMotebit(tmp.dir);
    const s = await connectStdio(["--identity", identity]);
    for (const content of ["first: the cat is called Mochi", "second: the boiler was serviced in May"]) {
      const r = await callText(s.client, "motebit_remember", { content, sensitivity: "none" });
      ids.push(JSON.parse(r.text.replace(/\n\[motebit:[^\]]*\]\s*$/, "")).node_id);
    }
    await s.close();
  });
  afterAll(() => tmp.cleanup());

  it("list prints the memories as JSON, newest first", async () => {
    const r = await runCli(["memory", "list", "--identity", identity]);
    expect(r.code, r.stderr).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows.map((m: { node_id: string }) => m.node_id)).toEqual([...ids].reverse());
    expect(rows[0]).toMatchObject({ content: "second: the boiler was serviced in May", scope: "owner", provenance: "owner", sensitivity: "none" });
  });

  it("forget erases one memory; list no longer shows it, export keeps its tombstone without content", async () => {
    const f = await runCli(["memory", "forget", ids[0], "--identity", identity]);
    expect(f.code, f.stderr).toBe(0);
    expect(JSON.parse(f.stdout)).toEqual({ forgotten: ids[0] });

    const list = JSON.parse((await runCli(["memory", "list", "--identity", identity])).stdout);
    expect(list.map((m: { node_id: string }) => m.node_id)).toEqual([ids[1]]);

    const exported = JSON.parse((await runCli(["memory", "export", "--identity", identity])).stdout);
    expect(exported).toHaveLength(2);
    const tomb = exported.find((m: { node_id: string }) => m.node_id === ids[0]);
    expect(tomb.content).toBe("");
    expect(tomb.forgotten_at).toBeTypeOf("number");
    expect(JSON.stringify(exported)).not.toContain("Mochi");
  });

  it("forget of an unknown id exits 1 with one line", async () => {
    const r = await runCli(["memory", "forget", "no-such-id", "--identity", identity]);
    expect(r.code).toBe(1);
    expect(r.stderr.trimEnd().split("\n")).toEqual([`motebit-local memory: no memory "no-such-id" to forget (unknown id, or already forgotten)`]);
  });

  it("refuses a data dir that holds no motebit", async () => {
    const r = await runCli(["memory", "list", "--data-dir", `${tmp.dir}/empty`]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no motebit state at");
  });
});
