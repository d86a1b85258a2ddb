import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

const json = (t: string) => JSON.parse(stripIdentityTag(t));

describe("the owner's memory housekeeping tools over stdio", () => {
  it("lists, forgets and exports for the owner, leaving out medical, financial and secret memories", async () => {
    const h = await makeMotebit();
    const tea = json(await h.text(owner, "motebit_remember", { content: "likes green tea", sensitivity: "personal" })).node_id;
    await h.call(owner, "motebit_remember", { content: "PIN 1234", sensitivity: "secret" });
    await h.call(peer(), "motebit_remember", { content: "peer says hi" });

    const listed = json(await h.text(owner, "motebit_memory_list", {}));
    expect(listed.map((r: { content: string }) => r.content).sort()).toEqual(["likes green tea", "peer says hi"]);
    const mine = json(await h.text(owner, "motebit_memory_list", { scope: "owner" }));
    expect(mine.map((r: { content: string }) => r.content)).toEqual(["likes green tea"]);

    expect(json(await h.text(owner, "motebit_memory_forget", { node_id: tea }))).toEqual({ node_id: tea, forgotten: true });
    expect(json(await h.text(owner, "motebit_recall", { query: "green tea" }))).toEqual([]);
    const again = await h.call(owner, "motebit_memory_forget", { node_id: tea });
    expect(again.isError).toBe(true);

    const exported = json(await h.text(owner, "motebit_memory_export", {}));
    expect(JSON.stringify(exported)).not.toMatch(/PIN 1234|green tea/);
    expect(exported.find((n: { node_id: string }) => n.node_id === tea).forgotten_at).toEqual(expect.any(Number));
  });

  it("are never listed or callable over HTTP", async () => {
    const h = await makeMotebit();
    const listed = (await h.rpc(peer("trusted"), "tools/list")).result.tools.map((t: { name: string }) => t.name);
    expect(listed.filter((n: string) => n.startsWith("motebit_memory_"))).toEqual([]);
    for (const name of ["motebit_memory_list", "motebit_memory_forget", "motebit_memory_export"]) {
      const r = await h.rpc(peer("trusted"), "tools/call", { name, arguments: { node_id: "x" } });
      expect(r.error.message).toBe(`Unknown tool: ${name}`);
    }
  });
});
