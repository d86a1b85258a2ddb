// A required capability that no tool served to this caller provides is a signed `failed` receipt, never a
// fallback to another tool: a receipt must not claim work that was not on offer.
import { describe, expect, it } from "vitest";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

describe("motebit_task with a capability nothing serves", () => {
  const unserved = ["read_note", "__proto__", "ECHO", "../echo", "*", "echo*", "constructor"];

  for (const cap of unserved) {
    it(`a peer asking for ${JSON.stringify(cap)} gets a signed failed receipt naming it, and nothing runs`, async () => {
      const h = await makeMotebit();
      const r = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "hello", required_capabilities: [cap] })));
      expect(r).toMatchObject({ status: "failed", result: `Error: no served tool provides ${JSON.stringify(cap)}`, tools_used: [] });
      expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
      expect(h.m.ledger.list().map((e) => e.receipt.status)).toEqual(["failed"]);
    });
  }

  it("one unserved entry among served ones fails the whole task", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "hi", required_capabilities: ["echo", "nope"] })));
    expect(r).toMatchObject({ status: "failed", result: 'Error: no served tool provides "nope"', tools_used: [] });
  });

  it("the owner over stdio is served the localOnly tool, so the same capability runs", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(owner, "motebit_task", { prompt: "todo.md", required_capabilities: ["read_note"] })));
    expect(r).toMatchObject({ status: "completed", tools_used: ["read_note"] });
  });

  it("a served capability runs exactly that tool", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_task", { prompt: "a b c", required_capabilities: ["word_count"] })));
    expect(r).toMatchObject({ status: "completed", tools_used: ["word_count"] });
  });
});
