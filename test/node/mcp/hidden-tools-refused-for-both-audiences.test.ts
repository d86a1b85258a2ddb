// A tool's audience (owner, peer or both) decides both what a principal is shown and what it may call: a tool not
// in a principal's tools/list does not exist for it when called. Checked over every real declaration (synthetic
// tools, a served localOnly tool) for both kinds of principal, so a tool added for one audience is held to it too.
import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { SYNTHETIC_TOOLS } from "../../../src/mcp/synthetic/index.js";
import { admits } from "../../../src/policy/admission/audience.js";
import type { Principal } from "../../../src/principal.js";

const tools = [
  { definition: { name: "public_tool", description: "p", inputSchema: { type: "object" }, risk: 0 }, handler: () => ({ ok: true, data: "pub" }) },
  { definition: { name: "owner_shell", description: "s", inputSchema: { type: "object" }, risk: 0, localOnly: true }, handler: () => ({ ok: true, data: "ran" }) },
];

const principals: [string, Principal][] = [
  ["owner", owner],
  ["trusted peer", peer("trusted")],
];

describe("a tool hidden from a principal is refused when it calls it", () => {
  it("the audience rule: owner-only for the owner, peer-only for peers, both for both", () => {
    expect([admits("owner", "owner"), admits("owner", "peer")]).toEqual([true, false]);
    expect([admits("peer", "owner"), admits("peer", "peer")]).toEqual([false, true]);
    expect([admits("both", "owner"), admits("both", "peer")]).toEqual([true, true]);
  });

  for (const [label, p] of principals) {
    it(`${label}: listed exactly when its audience admits it, and every tool not listed is an unknown tool when called`, async () => {
      const h = await makeMotebit({ identity: "service", tools });
      const listed = new Set<string>((await h.rpc(p, "tools/list")).result.tools.map((t: { name: string }) => t.name));
      for (const t of SYNTHETIC_TOOLS) expect(listed.has(t.name), t.name).toBe(admits(t.audience, p.kind));
      expect(listed.has("owner_shell")).toBe(p.kind === "owner");
      const everyName = [...SYNTHETIC_TOOLS.map((t) => t.name), ...tools.map((t) => t.definition.name)];
      const hidden = everyName.filter((n) => !listed.has(n));
      // A peer has owner-only tools hidden from it; the owner, today, none (no tool is for peers alone).
      if (p.kind === "peer") expect(hidden).toEqual(expect.arrayContaining(["motebit_memory_list", "motebit_memory_forget", "motebit_memory_export", "owner_shell"]));
      for (const name of hidden) {
        const res = await h.rpc(p, "tools/call", { name, arguments: {} });
        expect(res.error?.message, name).toBe(`Unknown tool: ${name}`);
      }
      // Nothing hidden ran: the only rows are the refusals.
      const rows = h.m.audit.list({ limit: 100 }).filter((r) => hidden.includes(r.tool));
      expect(rows.map((r) => r.outcome)).toEqual(hidden.map(() => "invalid"));
    });
  }
});
