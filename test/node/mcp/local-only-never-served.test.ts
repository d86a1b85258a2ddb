import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

const tools = [
  { definition: { name: "public_tool", description: "p", inputSchema: { type: "object" }, risk: 0 }, handler: () => ({ ok: true, data: "pub" }) },
  { definition: { name: "owner_shell", description: "s", inputSchema: { type: "object" }, risk: 0, localOnly: true }, handler: () => ({ ok: true, data: "ran" }) },
];

describe("localOnly tools are never served over HTTP", () => {
  it("are absent from a peer's tools/list and motebit_tools", async () => {
    const h = await makeMotebit({ tools });
    const listed = (await h.rpc(peer(), "tools/list")).result.tools.map((t: { name: string }) => t.name);
    expect(listed).toContain("public_tool");
    expect(listed).not.toContain("owner_shell");
    expect(await h.text(peer("trusted"), "motebit_tools")).not.toMatch(/owner_shell/);
  });

  it("cannot be called by a peer, even by name", async () => {
    const h = await makeMotebit({ tools });
    const res = await h.rpc(peer("trusted"), "tools/call", { name: "owner_shell", arguments: {} });
    expect(res.error.message).toBe("Unknown tool: owner_shell");
  });

  it("are listed for and callable by the owner", async () => {
    const h = await makeMotebit({ tools });
    const listed = (await h.rpc(owner, "tools/list")).result.tools.map((t: { name: string }) => t.name);
    expect(listed).toContain("owner_shell");
    expect(await h.text(owner, "owner_shell")).toMatch(/^ran\n\[motebit:/);
  });
});
