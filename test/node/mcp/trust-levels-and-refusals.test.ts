import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { firstContactMessage } from "../../../src/policy/admission/refusals.js";

const APPROVAL = (n: string) =>
  `Governance: tool "${n}" requires approval from the motebit owner. This tool is in the approval band of the governance policy.`;

describe("the policy gate in front of every call", () => {
  it("first_contact callers get R0 only; above R0 they are refused for their trust", async () => {
    const h = await makeMotebit();
    expect((await h.call(peer("first_contact"), "motebit_identity")).isError).toBeUndefined();
    const r = await h.call(peer("first_contact"), "motebit_remember", { content: "x" });
    expect(r).toEqual({ content: [{ type: "text", text: firstContactMessage("motebit_remember") }], isError: true });
    const listed = JSON.parse(stripIdentityTag(await h.text(peer("first_contact"), "motebit_tools")));
    expect(listed.map((t: { name: string; risk: number }) => [t.name, t.risk])).toEqual([
      ["motebit_identity", 0],
      ["motebit_tools", 0],
      ["motebit_service_listing", 0],
      ["motebit_credentials", 0],
      ["echo", 0],
      ["word_count", 0],
      ["current_time", 0],
    ]);
  });

  it("blocked callers are denied everything", async () => {
    const h = await makeMotebit();
    const r = await h.call(peer("blocked"), "motebit_identity");
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^Policy denied: /);
  });

  it("a served tool without a declared risk is denied, never guessed", async () => {
    const h = await makeMotebit({
      tools: [{ definition: { name: "harmless", description: "Just reads. Totally safe. R0.", inputSchema: { type: "object" } }, handler: () => ({ ok: true, data: 1 }) }],
    });
    const r = await h.call(owner, "harmless");
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^Policy denied: /);
    expect(await h.text(owner, "motebit_tools")).not.toMatch(/harmless/);
  });

  it("the default service governance denies R4 for everyone with the exact default text", async () => {
    const tools = [{ definition: { name: "pay", description: "p", inputSchema: { type: "object" }, risk: "R4_MONEY" }, handler: () => ({ ok: true, data: "paid" }) }];
    const h = await makeMotebit({ tools });
    for (const p of [owner, peer("trusted"), peer()]) {
      expect((await h.call(p, "pay")).content[0].text).toBe("Policy denied: tool not allowed by governance policy");
    }
  });

  it("personal governance: the approval band refuses peers, runs for the owner and trusted callers", async () => {
    const h = await makeMotebit({ identity: "personal" });
    expect((await h.call(peer(), "motebit_remember", { content: "x" })).content[0].text).toBe(APPROVAL("motebit_remember"));
    expect((await h.call(owner, "motebit_remember", { content: "x" })).isError).toBeUndefined();
    expect((await h.call(peer("trusted"), "motebit_remember", { content: "y" })).isError).toBeUndefined();
  });

  it("an identity file's deny band holds for the owner too", async () => {
    const h = await makeMotebit({ identity: "personal", editIdentity: (d) => (d.governance.deny_above = "R2_WRITE") });
    expect((await h.call(owner, "motebit_task", { prompt: "x" })).content[0].text).toMatch(/^Policy denied: /);
  });

  it("motebit_tools lists exactly what this caller may call, with integer risk levels and their names", async () => {
    const h = await makeMotebit({ identity: "personal" });
    const forPeer = JSON.parse(stripIdentityTag(await h.text(peer(), "motebit_tools")));
    expect(forPeer.map((t: { name: string }) => t.name)).toEqual(expect.arrayContaining(["motebit_identity", "motebit_tools", "echo"]));
    // Listed by tools/list, but always refused to this caller: recall (peers) and query (no model configured).
    expect(forPeer.map((t: { name: string }) => t.name)).not.toContain("motebit_recall");
    expect(forPeer.map((t: { name: string }) => t.name)).not.toContain("motebit_query");
    expect(forPeer.map((t: { name: string }) => t.name)).not.toContain("motebit_task");
    const forOwner = JSON.parse(stripIdentityTag(await h.text(owner, "motebit_tools")));
    expect(forOwner.map((t: { name: string }) => t.name)).toContain("motebit_task");
    expect(forOwner.find((t: { name: string }) => t.name === "motebit_recall")).toMatchObject({ risk: 1, risk_name: "R1_DRAFT" });
    expect(forOwner.map((t: { name: string }) => t.name)).not.toContain("motebit_query");
  });
});
