import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

describe("motebit_recall is the owner's alone", () => {
  it("refuses every HTTP caller with no memory content, whatever its trust", async () => {
    const h = await makeMotebit();
    await h.call(owner, "motebit_remember", { content: "The deploy key rotates every 90 days", sensitivity: "none" });
    for (const trust of ["first_contact", "verified", "trusted"] as const) {
      const r = await h.call(peer(trust), "motebit_recall", { query: "deploy key" });
      expect(r.isError).toBe(true);
      expect(r.content[0].text).not.toMatch(/90 days/);
    }
    const selfSigned = await h.call({ kind: "peer", callerId: h.m.motebitId, via: "self_signed", trust: "verified" }, "motebit_recall", { query: "deploy key" });
    expect(selfSigned.isError).toBe(true);
    expect(selfSigned.content[0].text).not.toMatch(/90 days/);
  });

  it("gives the owner its memories by meaning, with a real similarity, minus medical, financial and secret", async () => {
    const h = await makeMotebit();
    await h.call(owner, "motebit_remember", { content: "The deploy key rotates every 90 days", sensitivity: "personal" });
    await h.call(owner, "motebit_remember", { content: "Blood pressure medication at 8am", sensitivity: "medical" });
    await h.call(owner, "motebit_remember", { content: "Bank PIN is 4821", sensitivity: "secret" });
    await h.call(owner, "motebit_remember", { content: "Salary is paid on the 25th", sensitivity: "financial" });
    const hits = JSON.parse(stripIdentityTag(await h.text(owner, "motebit_recall", { query: "deploy key rotation", limit: 50 })));
    expect(hits[0].content).toBe("The deploy key rotates every 90 days");
    expect(hits[0].similarity).toBeGreaterThan(0);
    expect(Object.keys(hits[0]).sort()).toEqual(["confidence", "content", "created_at", "half_life_days", "memory_type", "similarity"]);
    const all = JSON.stringify(hits);
    expect(all).not.toMatch(/medication|PIN|Salary/);
  });

  it("never returns a peer's memories to the owner's recall, nor the owner's to a peer's scope", async () => {
    const h = await makeMotebit();
    await h.call(peer(), "motebit_remember", { content: "peer fact about deploy keys" });
    const hits = JSON.parse(stripIdentityTag(await h.text(owner, "motebit_recall", { query: "deploy keys" })));
    expect(hits).toEqual([]);
  });
});
