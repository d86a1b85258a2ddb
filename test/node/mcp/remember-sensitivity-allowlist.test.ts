import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

describe("motebit_remember sensitivity is an allowlist for peers", () => {
  it.each(["personal", "medical", "financial", "secret", "Secret", "PERSONAL", "foo", "None", " none", ""])(
    "refuses a peer storing sensitivity %j with the exact text",
    async (s) => {
      const h = await makeMotebit();
      const r = await h.call(peer(), "motebit_remember", { content: "x", sensitivity: s });
      expect(r.isError).toBe(true);
      expect(r.content[0].text).toBe(`Denied: external callers cannot store memories with sensitivity "${s}"`);
      expect(h.m.memory.count()).toBe(0);
    },
  );

  it("accepts none, and an absent sensitivity means none, marked peer_agent", async () => {
    const h = await makeMotebit();
    const a = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_remember", { content: "fact one", sensitivity: "none" })));
    const b = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_remember", { content: "fact two" })));
    expect(typeof a.node_id).toBe("string");
    expect(typeof b.node_id).toBe("string");
    const rows = h.m.memory.list({ limit: 10 });
    expect(rows.map((r: { sensitivity: string }) => r.sensitivity)).toEqual(["none", "none"]);
    expect(new Set(rows.map((r: { provenance: string }) => r.provenance))).toEqual(new Set(["peer_agent"]));
  });

  it("lets the owner store any valid sensitivity and refuses an unknown one", async () => {
    const h = await makeMotebit();
    for (const s of ["none", "personal", "medical", "financial", "secret"]) {
      expect((await h.call(owner, "motebit_remember", { content: `c-${s}`, sensitivity: s })).isError).toBeUndefined();
    }
    const bad = await h.call(owner, "motebit_remember", { content: "x", sensitivity: "Secret" });
    expect(bad.isError).toBe(true);
    expect(bad.content[0].text).toMatch(/^Invalid sensitivity "Secret"/);
  });
});
