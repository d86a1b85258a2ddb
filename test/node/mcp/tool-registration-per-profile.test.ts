import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

const names = async (h: Awaited<ReturnType<typeof makeMotebit>>, p = peer()) =>
  (await h.rpc(p, "tools/list")).result.tools.map((t: { name: string }) => t.name);

const SIX = ["motebit_identity", "motebit_tools", "motebit_query", "motebit_remember", "motebit_recall", "motebit_task"];

describe("tool registration per profile", () => {
  it("with no identity file the motebit is a service motebit: six synthetic tools, listing and credentials, then served tools", async () => {
    const h = await makeMotebit();
    expect(h.m.type).toBe("service");
    const list = await names(h);
    expect(list.slice(0, 8)).toEqual([...SIX, "motebit_service_listing", "motebit_credentials"]);
    expect(list).toContain("echo");
  });

  it("a personal identity registers the six synthetic tools and no service tools; the owner also gets memory housekeeping", async () => {
    const h = await makeMotebit({ identity: "personal" });
    expect((await names(h)).filter((n: string) => n.startsWith("motebit_"))).toEqual(SIX);
    expect((await names(h, owner)).filter((n: string) => n.startsWith("motebit_"))).toEqual([
      ...SIX,
      "motebit_memory_list",
      "motebit_memory_forget",
      "motebit_memory_export",
    ]);
  });

  it("a service identity file registers listing and credentials", async () => {
    const h = await makeMotebit({ identity: "service" });
    expect(await names(h)).toContain("motebit_service_listing");
    expect(await names(h)).toContain("motebit_credentials");
  });

  it("served input schemas pass through whole: enums, arrays and nested objects survive", async () => {
    const schema = {
      type: "object",
      properties: {
        mode: { type: "string", enum: ["fast", "slow"] },
        tags: { type: "array", items: { type: "string" } },
        opts: { type: "object", properties: { depth: { type: "integer", minimum: 1 } }, required: ["depth"] },
      },
      required: ["mode"],
    };
    const h = await makeMotebit({
      tools: [{ definition: { name: "shape", description: "d", inputSchema: schema, risk: 0 }, handler: () => ({ ok: true, data: 1 }) }],
    });
    const tool = (await h.rpc(peer(), "tools/list")).result.tools.find((t: { name: string }) => t.name === "shape");
    expect(tool.inputSchema).toEqual(schema);
  });

  it("a served tool may not take a motebit_ name", async () => {
    await expect(
      makeMotebit({
        tools: [{ definition: { name: "motebit_query", description: "x", inputSchema: { type: "object" }, risk: 0 }, handler: () => ({ ok: true, data: 1 }) }],
      }),
    ).rejects.toThrow(/motebit_/);
  });
});
