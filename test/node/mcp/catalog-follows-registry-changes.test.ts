// The tool catalog is kept between calls (per principal kind) and rebuilt when the registry changes: a tool a
// source adds is listed and callable at once, a tool it takes away is gone at once, and the owner's catalog
// never leaks into a peer's.
import { expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

const tool = (name: string, data: string, localOnly = true) => ({
  definition: { name, description: `the ${name} tool`, inputSchema: { type: "object" }, risk: "R0_READ", localOnly },
  handler: () => ({ ok: true, data }),
});

const listed = async (h: Awaited<ReturnType<typeof makeMotebit>>, p: typeof owner) =>
  ((await h.rpc(p, "tools/list")).result.tools as { name: string }[]).map((t) => t.name);

it("lists and calls what a source offers now, for the owner, and keeps localOnly tools from a peer", async () => {
  const h = await makeMotebit();
  const before = await listed(h, owner);
  expect(before).not.toContain("fs__read");

  h.m.registry.replaceSource("fs", [tool("fs__read", "first"), tool("fs__shared", "shared", false)]);
  expect(await listed(h, owner)).toEqual([...before, "fs__read", "fs__shared"]);
  expect(await h.text(owner, "fs__read")).toContain("first");
  expect(await listed(h, peer())).toContain("fs__shared");
  expect(await listed(h, peer())).not.toContain("fs__read");
  expect((await h.rpc(peer(), "tools/call", { name: "fs__read", arguments: {} })).error.message).toBe("Unknown tool: fs__read");

  // Same definitions, new handler: the call runs the handler the source offers now.
  h.m.registry.replaceSource("fs", [tool("fs__read", "second"), tool("fs__shared", "shared", false)]);
  expect(await h.text(owner, "fs__read")).toContain("second");

  h.m.registry.removeSource("fs");
  expect(await listed(h, owner)).toEqual(before);
  expect((await h.rpc(owner, "tools/call", { name: "fs__read", arguments: {} })).error.message).toBe("Unknown tool: fs__read");
});
